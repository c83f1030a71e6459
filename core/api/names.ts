/**
 * Name and label rules with kube's exact messages
 * (k8s.io/apimachinery pkg/util/validation/validation.go, pkg/api/validation/generic.go, pkg/api/validation/path).
 * Each check returns the list of problems; an empty list means valid. validateObjectMeta is kube's
 * ValidateObjectMetaAccessor (pkg/api/validation/objectmeta.go) for a create.
 */
import type { FieldError } from "./errors.ts";
import { byteLength, exceedsByteLength } from "./go-text.ts";
import type { ObjectMeta, OwnerReference } from "./types.ts";

const QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const QUALIFIED_NAME_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const QUALIFIED_NAME_MAX = 63;
const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";
const DNS1035_LABEL_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";

export const DNS1123_LABEL_MAX_LENGTH = 63;
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
export const DNS1035_LABEL_MAX_LENGTH = 63;
export const LABEL_VALUE_MAX_LENGTH = 63;

const anchored = (fmt: string) => new RegExp(`^${fmt}$`);
const QUALIFIED_NAME_RE = anchored(QUALIFIED_NAME_FMT);
const LABEL_VALUE_RE = anchored(LABEL_VALUE_FMT);
const DNS1123_LABEL_RE = anchored(DNS1123_LABEL_FMT);
const DNS1123_SUBDOMAIN_RE = anchored(DNS1123_SUBDOMAIN_FMT);
const DNS1035_LABEL_RE = anchored(DNS1035_LABEL_FMT);

export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

export function regexError(message: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${message} (regex used for validation is '${fmt}')`;
  return `${message} (e.g. ${examples.map((e) => `'${e}', `).join(" or ")}regex used for validation is '${fmt}')`;
}

// The messages of failed checks, made once: a valid value (the usual case) needs none.
const DNS1123_LABEL_ERROR = regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, "my-name", "123-abc");
const DNS1123_SUBDOMAIN_ERROR = regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, "example.com");
const DNS1035_LABEL_ERROR = regexError(DNS1035_LABEL_MSG, DNS1035_LABEL_FMT, "my-name", "abc-123");
const LABEL_VALUE_ERROR = regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, "MyValue", "my_value", "12345");
const QUALIFIED_NAME_ERROR = regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc");

function checkPattern(value: string, max: number, re: RegExp, error: string): string[] {
  const errors: string[] = [];
  if (exceedsByteLength(value, max)) errors.push(maxLenError(max));
  if (!re.test(value)) errors.push(error);
  return errors;
}

export function isDNS1123Label(value: string): string[] {
  return checkPattern(
    value,
    DNS1123_LABEL_MAX_LENGTH,
    DNS1123_LABEL_RE,
    DNS1123_LABEL_ERROR,
  );
}

export function isDNS1123Subdomain(value: string): string[] {
  return checkPattern(
    value,
    DNS1123_SUBDOMAIN_MAX_LENGTH,
    DNS1123_SUBDOMAIN_RE,
    DNS1123_SUBDOMAIN_ERROR,
  );
}

export function isDNS1035Label(value: string): string[] {
  return checkPattern(
    value,
    DNS1035_LABEL_MAX_LENGTH,
    DNS1035_LABEL_RE,
    DNS1035_LABEL_ERROR,
  );
}

export function isValidLabelValue(value: string): string[] {
  return checkPattern(
    value,
    LABEL_VALUE_MAX_LENGTH,
    LABEL_VALUE_RE,
    LABEL_VALUE_ERROR,
  );
}

/** A label key or annotation key: `[prefix/]name`, the prefix a DNS subdomain, the name at most 63 characters. */
export function isQualifiedName(value: string): string[] {
  const errors: string[] = [];
  const parts = value.split("/");
  let name: string;
  if (parts.length === 1) {
    name = parts[0];
  } else if (parts.length === 2) {
    const prefix = parts[0];
    name = parts[1];
    if (prefix.length === 0) errors.push("prefix part must be non-empty");
    else errors.push(...isDNS1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  } else {
    return [
      `a qualified name ${QUALIFIED_NAME_ERROR} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errors.push("name part must be non-empty");
  else if (exceedsByteLength(name, QUALIFIED_NAME_MAX)) errors.push(`name part ${maxLenError(QUALIFIED_NAME_MAX)}`);
  if (!QUALIFIED_NAME_RE.test(name)) {
    errors.push(`name part ${QUALIFIED_NAME_ERROR}`);
  }
  return errors;
}

/** Names that only have to be usable as one URL path segment (RBAC objects, many others). */
export function isValidPathSegmentName(name: string): string[] {
  if (name === "." || name === "..") return [`may not be '${name}'`];
  return isValidPathSegmentPrefix(name);
}

/** A generateName prefix for path-segment names: "." and ".." are fine because a suffix follows. */
export function isValidPathSegmentPrefix(name: string): string[] {
  return ["/", "%"].filter((bad) => name.includes(bad)).map((bad) => `may not contain '${bad}'`);
}

/** Validates a name, or (prefix = true) a generateName, which may end in "-" because a random suffix follows. */
export type NameValidator = (name: string, prefix: boolean) => string[];

/** kube's maskTrailingDash, quirk included: it drops the last two characters and appends "a". */
function maskTrailingDash(name: string): string {
  return name.endsWith("-") ? `${name.slice(0, Math.max(0, name.length - 2))}a` : name;
}

export const nameIsDNSSubdomain: NameValidator = (name, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
export const nameIsDNSLabel: NameValidator = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);
export const nameIsDNS1035Label: NameValidator = (name, prefix) => isDNS1035Label(prefix ? maskTrailingDash(name) : name);
export const nameIsPathSegment: NameValidator = (name, prefix) => prefix ? isValidPathSegmentPrefix(name) : isValidPathSegmentName(name);

export const TOTAL_ANNOTATION_SIZE_LIMIT_BYTES = 256 * 1024;

const invalid = (field: string, value: unknown, detail: string): FieldError => ({ type: "FieldValueInvalid", field, value, detail });

export function validateLabels(labels: Record<string, string> | undefined, field: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const key in labels) {
    if (!Object.hasOwn(labels, key)) continue;
    const value = labels[key];
    for (const m of isQualifiedName(key)) errors.push(invalid(field, key, m));
    for (const m of isValidLabelValue(value)) errors.push(invalid(field, value, m));
  }
  return errors;
}

/** Keys are qualified names ignoring case; keys plus values may total at most 256 KiB. */
export function validateAnnotations(annotations: Record<string, string> | undefined, field: string): FieldError[] {
  const errors: FieldError[] = [];
  let size = 0;
  for (const key in annotations) {
    if (!Object.hasOwn(annotations, key)) continue;
    const value = annotations[key];
    for (const m of isQualifiedName(key.toLowerCase())) errors.push(invalid(field, key, m));
    size += byteLength(key) + byteLength(value);
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT_BYTES) {
    errors.push({ type: "FieldValueTooLong", field, value: "", detail: `must have at most ${TOTAL_ANNOTATION_SIZE_LIMIT_BYTES} bytes` });
  }
  return errors;
}

/** schema.FromAPIVersionAndKind: "v1" → core, "g/v" → group g, anything else → no group/version. */
function splitAPIVersion(apiVersion: string): { group: string; version: string } {
  const parts = apiVersion.split("/");
  if (parts.length === 1) return { group: "", version: parts[0] };
  return parts.length === 2 ? { group: parts[0], version: parts[1] } : { group: "", version: "" };
}

function validateOwnerReferences(refs: OwnerReference[] | undefined, field: string): FieldError[] {
  const errors: FieldError[] = [];
  let firstController = "";
  for (const ref of refs ?? []) {
    const { group, version } = splitAPIVersion(ref.apiVersion ?? "");
    if (!version) errors.push(invalid(`${field}.apiVersion`, ref.apiVersion ?? "", "version must not be empty"));
    if (!ref.kind) errors.push(invalid(`${field}.kind`, ref.kind ?? "", "kind must not be empty"));
    if (!ref.name) errors.push(invalid(`${field}.name`, ref.name ?? "", "name must not be empty"));
    if (!ref.uid) errors.push(invalid(`${field}.uid`, ref.uid ?? "", "uid must not be empty"));
    if (group === "" && version === "v1" && ref.kind === "Event") {
      errors.push(invalid(field, ref, "/v1, Kind=Event is disallowed from being an owner"));
    }
    if (ref.controller !== true) continue;
    const current = `${ref.kind}/${ref.name}`;
    if (firstController === "") firstController = current;
    else {errors.push(
        invalid(
          field,
          refs,
          `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`,
        ),
      );}
  }
  return errors;
}

function validateFinalizers(finalizers: string[] | undefined, field: string): FieldError[] {
  if (!finalizers || finalizers.length === 0) return [];
  const list = finalizers;
  const errors = list.flatMap((f) => isQualifiedName(f).map((m) => invalid(field, f, m)));
  if (list.includes("orphan") && list.includes("foregroundDeletion")) {
    errors.push(invalid(field, list, "finalizer orphan and foregroundDeletion cannot be both set"));
  }
  return errors;
}

/** Finalizer names that need no domain prefix (kube's core helper.IsStandardFinalizerName). */
export const STANDARD_FINALIZERS: ReadonlySet<string> = new Set(["kubernetes", "orphan", "foregroundDeletion"]);

export const UNQUALIFIED_FINALIZER = "name is neither a standard finalizer name nor is it fully qualified";

/**
 * kube's core validateKubeFinalizerName, which the core ValidateObjectMeta and ValidateObjectMetaUpdate add to
 * the generic metadata checks: a finalizer without a domain prefix must be a standard one.
 */
export function validateKubeFinalizerNames(finalizers: string[] | undefined, field: string): FieldError[] {
  if (!finalizers || finalizers.length === 0) return [];
  return finalizers.flatMap((name, i) =>
    name.includes("/") || STANDARD_FINALIZERS.has(name) ? [] : [invalid(`${field}[${i}]`, name, UNQUALIFIED_FINALIZER)]
  );
}

function validateManagedFields(entries: unknown[] | undefined, field: string): FieldError[] {
  const errors: FieldError[] = [];
  (entries ?? []).forEach((raw, i) => {
    const entry = (raw ?? {}) as { operation?: string; fieldsType?: string; manager?: string; subresource?: string };
    const at = `${field}[${i}]`;
    if (entry.operation !== "Apply" && entry.operation !== "Update") {
      errors.push(invalid(`${at}.operation`, entry.operation ?? "", "must be `Apply` or `Update`"));
    }
    if (entry.fieldsType && entry.fieldsType !== "FieldsV1") {
      errors.push(invalid(`${at}.fieldsType`, entry.fieldsType, "must be `FieldsV1`"));
    }
    if (exceedsByteLength(entry.manager ?? "", 128)) {
      errors.push({ type: "FieldValueTooLong", field: `${at}.manager`, value: entry.manager, detail: "must have at most 128 bytes" });
    }
    if (exceedsByteLength(entry.subresource ?? "", 256)) {
      errors.push({
        type: "FieldValueTooLong",
        field: `${at}.subresource`,
        value: entry.subresource,
        detail: "must have at most 256 bytes",
      });
    }
  });
  return errors;
}

export interface ObjectMetaRules {
  namespaced: boolean;
  nameValidator: NameValidator;
  /** Path of the metadata in messages; kube uses "metadata". */
  path?: string;
}

/** The metadata checks of a create, after name generation, in kube's order. */
export function validateObjectMeta(meta: ObjectMeta, rules: ObjectMetaRules): FieldError[] {
  const path = rules.path ?? "metadata";
  const errors: FieldError[] = [];
  if (meta.generateName) {
    for (const m of rules.nameValidator(meta.generateName, true)) errors.push(invalid(`${path}.generateName`, meta.generateName, m));
  }
  if (!meta.name) errors.push({ type: "FieldValueRequired", field: `${path}.name`, detail: "name or generateName is required" });
  else for (const m of rules.nameValidator(meta.name, false)) errors.push(invalid(`${path}.name`, meta.name, m));
  if (rules.namespaced) {
    if (!meta.namespace) errors.push({ type: "FieldValueRequired", field: `${path}.namespace`, detail: "" });
    else for (const m of nameIsDNSLabel(meta.namespace, false)) errors.push(invalid(`${path}.namespace`, meta.namespace, m));
  } else if (meta.namespace) {
    errors.push({ type: "FieldValueForbidden", field: `${path}.namespace`, detail: "not allowed on this type" });
  }
  if ((meta.generation ?? 0) < 0) errors.push(invalid(`${path}.generation`, meta.generation, "must be greater than or equal to 0"));
  errors.push(...validateLabels(meta.labels, `${path}.labels`));
  errors.push(...validateAnnotations(meta.annotations, `${path}.annotations`));
  errors.push(...validateOwnerReferences(meta.ownerReferences, `${path}.ownerReferences`));
  errors.push(...validateFinalizers(meta.finalizers, `${path}.finalizers`));
  errors.push(...validateManagedFields(meta.managedFields, `${path}.managedFields`));
  return errors;
}
