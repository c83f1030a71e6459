/**
 * flowcontrol.apiserver.k8s.io FlowSchemas and PriorityLevelConfigurations (kube 1.26's
 * pkg/apis/flowcontrol/validation: ValidateFlowSchema, ValidatePriorityLevelConfiguration and their status
 * updates). Objects arrive in the request's version, which names the shares field as kube's
 * getVersionedFieldNameForConcurrencyShares does.
 */
import type { FieldError } from "../../api/errors.ts";
import { EXEMPT, FLOWCONTROL_GROUP, MANDATORY_FLOW_SCHEMAS, MANDATORY_PRIORITY_LEVELS } from "../../api/flowcontrol-bootstrap.ts";
import { goQuote, goStringSlice } from "../../api/go-text.ts";
import { isDNS1123Label, isDNS1123Subdomain } from "../../api/names.ts";
import type { KubeObject } from "../../api/types.ts";
import { versionConversionFor } from "../conversion/mod.ts";
import {
  deepEqual,
  duplicate,
  forbidden,
  invalid,
  invalidEach,
  isSet,
  list,
  notSupported,
  type Obj,
  record,
  required,
  text,
} from "./_field.ts";

/** flowcontrol.FlowSchemaMaxMatchingPrecedence. */
const MAX_MATCHING_PRECEDENCE = 10_000;
/** priorityLevelConfigurationQueuingMaxQueues (10^7). */
const MAX_QUEUES = 10_000_000;
/** shufflesharding.MaxHashBits. */
const MAX_HASH_BITS = 60;
const WILDCARD = "*";
/** The supported sets as kube's sets.String.List() prints them: sorted. */
const DISTINGUISHER_METHODS = ["ByNamespace", "ByUser"];
const SUBJECT_KINDS = ["Group", "ServiceAccount", "User"];
const VERBS = ["create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"];
const LEVEL_TYPES = ["Exempt", "Limited"];
const LIMIT_RESPONSE_TYPES = ["Queue", "Reject"];
const NAMESPACE_INTRO = "each member of this list must be '*' or a DNS-1123 label; ";

const number = (value: unknown): number => typeof value === "number" ? value : 0;
const strings = (value: unknown): string[] => list(value).map(String);

/** A verbs list: "*" alone, or only kube's supported verbs (shared by resource and non-resource rules). */
function validateVerbs(verbs: string[], at: string): FieldError[] {
  if (verbs.length === 0) return [required(`${at}.verbs`, "verbs must contain at least one value")];
  if (verbs.includes(WILDCARD)) {
    return verbs.length > 1 ? [invalid(`${at}.verbs`, verbs, "if '*' is present, must not specify other verbs", goStringSlice(verbs))] : [];
  }
  return verbs.every((verb) => VERBS.includes(verb)) ? [] : [notSupported(`${at}.verbs`, verbs, VERBS, goStringSlice(verbs))];
}

/** A non-empty list where "*" stands alone (apiGroups, resources). */
function validateWildcardList(values: string[], field: string, missing: string, what: string): FieldError[] {
  if (values.length === 0) return [required(field, missing)];
  if (values.length > 1 && values.includes(WILDCARD)) {
    return [invalid(field, values, `if '*' is present, must not specify other ${what}`, goStringSlice(values))];
  }
  return [];
}

/** kube's ValidateNonResourceURLPath. */
export function validateNonResourceURLPath(path: string, field: string): FieldError[] {
  const fail = (detail: string) => [invalid(field, path, detail)];
  if (path === "") return fail("must not be empty");
  if (path === "/") return [];
  if (!path.startsWith("/")) return fail("must start with slash");
  if (path.includes(" ")) return fail("must not contain white-space");
  if (path.includes("//")) return fail("must not contain double slash");
  const wildcards = path.split(WILDCARD).length - 1;
  if (wildcards > 1 || (wildcards === 1 && !path.endsWith("/*"))) return fail("wildcard can only do suffix matching");
  return [];
}

function validateResourceRule(rule: Obj, at: string): FieldError[] {
  const errors = validateVerbs(strings(rule.verbs), at);
  errors.push(
    ...validateWildcardList(strings(rule.apiGroups), `${at}.apiGroups`, "resource rules must supply at least one api group", "api groups"),
    ...validateWildcardList(strings(rule.resources), `${at}.resources`, "resource rules must supply at least one resource", "resources"),
  );
  const namespaces = strings(rule.namespaces);
  if (namespaces.length === 0 && rule.clusterScope !== true) {
    errors.push(required(`${at}.namespaces`, "resource rules that are not cluster scoped must supply at least one namespace"));
  } else if (namespaces.includes(WILDCARD)) {
    if (namespaces.length > 1) {
      errors.push(
        invalid(`${at}.namespaces`, namespaces, "if '*' is present, must not specify other namespaces", goStringSlice(namespaces)),
      );
    }
  } else {
    namespaces.forEach((namespace, i) =>
      errors.push(...isDNS1123Label(namespace).map((m) => invalid(`${at}.namespaces[${i}]`, namespace, NAMESPACE_INTRO + m)))
    );
  }
  return errors;
}

function validateNonResourceRule(rule: Obj, at: string): FieldError[] {
  const errors = validateVerbs(strings(rule.verbs), at);
  const urls = strings(rule.nonResourceURLs);
  const field = `${at}.nonResourceURLs`;
  if (urls.length === 0) errors.push(required(field, "nonResourceURLs must contain at least one value"));
  else if (urls.includes(WILDCARD)) {
    if (urls.length > 1) {
      errors.push(invalid(field, urls, "if '*' is present, must not specify other non-resource URLs", goStringSlice(urls)));
    }
  } else urls.forEach((url, i) => errors.push(...validateNonResourceURLPath(url, `${field}[${i}]`)));
  return errors;
}

/** The member a subject of `kind` must carry, and the other two it must not (kube's ValidateFlowSchemaSubject). */
const SUBJECT_MEMBERS = { ServiceAccount: "serviceAccount", User: "user", Group: "group" } as const;

function validateSubject(subject: Obj, at: string): FieldError[] {
  const kind = text(subject.kind);
  if (!Object.hasOwn(SUBJECT_MEMBERS, kind)) return [notSupported(`${at}.kind`, kind, SUBJECT_KINDS)];
  const own = SUBJECT_MEMBERS[kind as keyof typeof SUBJECT_MEMBERS];
  const errors: FieldError[] = [];
  const member = subject[own];
  if (!isSet(member)) errors.push(required(`${at}.${own}`, `${own} is required when subject kind is '${kind}'`));
  else {
    const value = record(member);
    const name = text(value.name);
    if (name === "") errors.push(required(`${at}.${own}.name`));
    else if (own === "serviceAccount" && name !== WILDCARD) {
      errors.push(...invalidEach(`${at}.${own}.name`, name, isDNS1123Subdomain(name)));
    }
    if (own === "serviceAccount") {
      const namespace = text(value.namespace);
      if (namespace === "") errors.push(required(`${at}.${own}.namespace`, "must specify namespace for service account"));
      else errors.push(...invalidEach(`${at}.${own}.namespace`, namespace, isDNS1123Label(namespace)));
    }
  }
  for (const [otherKind, other] of Object.entries(SUBJECT_MEMBERS)) {
    if (other !== own && isSet(subject[other])) {
      errors.push(forbidden(`${at}.${other}`, `${other} is forbidden when subject kind is not '${otherKind}'`));
    }
  }
  return errors;
}

function validateRulesWithSubjects(rule: Obj, at: string): FieldError[] {
  const subjects = list(rule.subjects);
  const errors = subjects.length > 0
    ? subjects.flatMap((subject, i) => validateSubject(record(subject), `${at}.subjects[${i}]`))
    : [required(`${at}.subjects`, "subjects must contain at least one value")];
  const resourceRules = list(rule.resourceRules);
  const nonResourceRules = list(rule.nonResourceRules);
  if (resourceRules.length === 0 && nonResourceRules.length === 0) {
    errors.push(required(at, "at least one of resourceRules and nonResourceRules has to be non-empty"));
  }
  resourceRules.forEach((r, i) => errors.push(...validateResourceRule(record(r), `${at}.resourceRules[${i}]`)));
  nonResourceRules.forEach((r, i) => errors.push(...validateNonResourceRule(record(r), `${at}.nonResourceRules[${i}]`)));
  return errors;
}

/** kube's ValidateFlowSchemaSpec. */
function validateFlowSchemaSpec(name: string, spec: Obj): FieldError[] {
  const errors: FieldError[] = [];
  const precedence = number(spec.matchingPrecedence);
  const precedenceInvalid = (detail: string) => errors.push(invalid("spec.matchingPrecedence", precedence, detail));
  if (precedence <= 0) precedenceInvalid("must be a positive value");
  if (precedence > MAX_MATCHING_PRECEDENCE) precedenceInvalid(`must not be greater than ${MAX_MATCHING_PRECEDENCE}`);
  if (precedence === 1 && name !== EXEMPT) precedenceInvalid("only the schema named 'exempt' may have matchingPrecedence 1");
  if (isSet(spec.distinguisherMethod)) {
    const method = record(spec.distinguisherMethod);
    const type = text(method.type);
    if (!DISTINGUISHER_METHODS.includes(type)) {
      // kube reports the whole method struct, dereferenced, as %#v prints it.
      const valueText = `flowcontrol.FlowDistinguisherMethod{Type:${goQuote(type)}}`;
      errors.push(notSupported("spec.distinguisherMethod.type", method, DISTINGUISHER_METHODS, valueText));
    }
  }
  const levelName = text(record(spec.priorityLevelConfiguration).name);
  if (levelName === "") errors.push(required("spec.priorityLevelConfiguration.name", "must reference a priority level"));
  else errors.push(...invalidEach("spec.priorityLevelConfiguration.name", levelName, isDNS1123Subdomain(levelName)));
  list(spec.rules).forEach((rule, i) => errors.push(...validateRulesWithSubjects(record(rule), `spec.rules[${i}]`)));
  return errors;
}

/** kube's ValidateLimitResponse and ValidatePriorityLevelQueuingConfiguration. */
function validateLimitResponse(response: Obj, at: string): FieldError[] {
  const type = text(response.type);
  if (type === "Reject") {
    return isSet(response.queuing) ? [forbidden(`${at}.queuing`, "must be nil if limited.limitResponse.type is not Limited")] : [];
  }
  if (type !== "Queue") return [notSupported(`${at}.type`, type, LIMIT_RESPONSE_TYPES)];
  if (!isSet(response.queuing)) return [required(`${at}.queuing`, "must not be empty if limited.limitResponse.type is Limited")];
  const queuing = record(response.queuing);
  const errors: FieldError[] = [];
  const queueLengthLimit = number(queuing.queueLengthLimit);
  const queues = number(queuing.queues);
  const handSize = number(queuing.handSize);
  if (queueLengthLimit <= 0) errors.push(invalid(`${at}.queuing.queueLengthLimit`, queueLengthLimit, "must be positive"));
  if (queues <= 0) errors.push(invalid(`${at}.queuing.queues`, queues, "must be positive"));
  else if (queues > MAX_QUEUES) errors.push(invalid(`${at}.queuing.queues`, queues, `must not be greater than ${MAX_QUEUES}`));
  const handSizeInvalid = (detail: string) => errors.push(invalid(`${at}.queuing.handSize`, handSize, detail));
  if (handSize <= 0) handSizeInvalid("must be positive");
  else if (handSize > queues) handSizeInvalid(`should not be greater than queues (${queues})`);
  else if (requiredEntropyBits(queues, handSize) > MAX_HASH_BITS) {
    handSizeInvalid(`required entropy bits of deckSize ${queues} and handSize ${handSize} should not be greater than ${MAX_HASH_BITS}`);
  }
  return errors;
}

/** shufflesharding.RequiredEntropyBits: the hash bits dealing a hand of `handSize` from `deckSize` cards takes. */
export function requiredEntropyBits(deckSize: number, handSize: number): number {
  return Math.ceil(Math.log2(deckSize) * handSize);
}

/** kube's ValidateLimitedPriorityLevelConfiguration (1.26: shares, limit response, then the borrowing percents). */
function validateLimited(limited: Obj, apiVersion: string): FieldError[] {
  const sharesField = apiVersion === `${FLOWCONTROL_GROUP}/v1beta3` ? "nominalConcurrencyShares" : "assuredConcurrencyShares";
  const errors: FieldError[] = [];
  const shares = number(limited[sharesField]);
  if (shares <= 0) errors.push(invalid(`spec.limited.${sharesField}`, shares, "must be positive"));
  errors.push(...validateLimitResponse(record(limited.limitResponse), "spec.limited.limitResponse"));
  const lendable = limited.lendablePercent;
  if (typeof lendable === "number" && (lendable < 0 || lendable > 100)) {
    errors.push(invalid("spec.limited.lendablePercent", lendable, "must be between 0 and 100, inclusive"));
  }
  const borrowing = limited.borrowingLimitPercent;
  if (typeof borrowing === "number" && borrowing < 0) {
    errors.push(invalid("spec.limited.borrowingLimitPercent", borrowing, "if specified, must be a non-negative integer"));
  }
  return errors;
}

/** kube's ValidatePriorityLevelConfigurationSpec. */
function validatePriorityLevelSpec(name: string, spec: Obj, apiVersion: string): FieldError[] {
  const type = text(spec.type);
  const errors: FieldError[] = [];
  if ((name === EXEMPT) !== (type === "Exempt")) {
    errors.push(invalid("spec.type", type, "type must be 'Exempt' if and only if name is 'exempt'"));
  }
  if (type === "Exempt") {
    if (isSet(spec.limited)) errors.push(forbidden("spec.limited", "must be nil if the type is not Limited"));
  } else if (type === "Limited") {
    if (!isSet(spec.limited)) errors.push(required("spec.limited", "must not be empty when type is Limited"));
    else errors.push(...validateLimited(record(spec.limited), apiVersion));
  } else errors.push(notSupported("spec.type", type, LEVEL_TYPES));
  return errors;
}

/** kube's Validate{FlowSchema,PriorityLevelConfiguration}Status: condition types present and distinct. */
function validateStatus(obj: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  list(record(obj.status).conditions).forEach((raw, i) => {
    const type = text(record(raw).type);
    if (seen.has(type)) errors.push(duplicate(`status.conditions[${i}].type`, type));
    seen.add(type);
    if (type === "") errors.push(required(`status.conditions[${i}].type`, "must not be empty"));
  });
  return errors;
}

/** Go's zero values (false, "", empty lists) equal absent ones, as apiequality.Semantic.DeepEqual sees the types. */
function withoutZeroValues(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutZeroValues);
  if (typeof value !== "object" || value === null) return value;
  const kept = Object.entries(value).filter(([, v]) =>
    v !== null && v !== undefined && v !== false && v !== "" && !(Array.isArray(v) && v.length === 0)
  );
  return Object.fromEntries(kept.map(([k, v]) => [k, withoutZeroValues(v)]));
}

/**
 * The mandatory objects ("exempt", "catch-all") keep kube's spec: it is compared in the stored form, where the
 * request's version has been converted away, as kube compares internal objects.
 */
function mandatorySpec(obj: KubeObject, resource: string, mandatory: readonly KubeObject[]): FieldError[] {
  const name = text(obj.metadata.name);
  const fixed = mandatory.find((candidate) => candidate.metadata.name === name);
  if (!fixed) return [];
  const [group, version] = text(obj.apiVersion).split("/");
  const conversion = versionConversionFor({ group: group ?? "", version: version ?? "", resource });
  const stored = conversion ? conversion.toStored(obj) : obj;
  if (deepEqual(withoutZeroValues(stored.spec), withoutZeroValues(fixed.spec))) return [];
  // kube prints the internal spec struct with %#v, pointers as addresses; the JSON spec stands in for it.
  return [invalid("spec", obj.spec, `spec of '${name}' must equal the fixed value`)];
}

export function validateFlowSchema(obj: KubeObject): FieldError[] {
  return [
    ...validateFlowSchemaSpec(text(obj.metadata.name), record(obj.spec)),
    ...mandatorySpec(obj, "flowschemas", MANDATORY_FLOW_SCHEMAS),
    ...validateStatus(obj),
  ];
}

export function validatePriorityLevelConfiguration(obj: KubeObject): FieldError[] {
  return [
    ...validatePriorityLevelSpec(text(obj.metadata.name), record(obj.spec), text(obj.apiVersion)),
    ...mandatorySpec(obj, "prioritylevelconfigurations", MANDATORY_PRIORITY_LEVELS),
    ...validateStatus(obj),
  ];
}

/** kube's Validate*Update re-runs the object rules; a status write checks the status alone (Validate*StatusUpdate). */
export const flowControlUpdate =
  (validate: (obj: KubeObject) => FieldError[]) => (obj: KubeObject, _old: KubeObject, subresource: string): FieldError[] =>
    subresource === "status" ? validateStatus(obj) : validate(obj);
