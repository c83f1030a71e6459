import { expect, test } from "bun:test";
import {
  MANDATORY_FLOW_SCHEMAS,
  MANDATORY_PRIORITY_LEVELS,
  SUGGESTED_FLOW_SCHEMAS,
  SUGGESTED_PRIORITY_LEVELS,
} from "../../api/flowcontrol-bootstrap.ts";
import type { KubeObject } from "../../api/types.ts";
import {
  flowControlUpdate,
  requiredEntropyBits,
  validateFlowSchema,
  validateNonResourceURLPath,
  validatePriorityLevelConfiguration,
} from "./flowcontrol.ts";
import { messages } from "./_testing.ts";

const V1BETA2 = "flowcontrol.apiserver.k8s.io/v1beta2";
const V1BETA3 = "flowcontrol.apiserver.k8s.io/v1beta3";
const everyone = [{ kind: "Group", group: { name: "system:authenticated" } }];
const allResources = [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"], namespaces: ["*"], clusterScope: true }];

function flowSchema(spec: Record<string, unknown>, name = "fs"): KubeObject {
  return {
    apiVersion: V1BETA3,
    kind: "FlowSchema",
    metadata: { name },
    spec: {
      priorityLevelConfiguration: { name: "global-default" },
      matchingPrecedence: 500,
      rules: [{ subjects: everyone, resourceRules: allResources }],
      ...spec,
    },
  };
}

function level(limited: Record<string, unknown>, apiVersion = V1BETA3, name = "pl"): KubeObject {
  return {
    apiVersion,
    kind: "PriorityLevelConfiguration",
    metadata: { name },
    spec: { type: "Limited", limited: { nominalConcurrencyShares: 10, limitResponse: { type: "Reject" }, ...limited } },
  };
}

const queue = (queuing: Record<string, unknown>) => ({ limitResponse: { type: "Queue", queuing } });

test("kube's bootstrap objects pass ValidateFlowSchema and ValidatePriorityLevelConfiguration", () => {
  for (const schema of [...MANDATORY_FLOW_SCHEMAS, ...SUGGESTED_FLOW_SCHEMAS]) expect(validateFlowSchema(schema)).toEqual([]);
  for (const level of [...MANDATORY_PRIORITY_LEVELS, ...SUGGESTED_PRIORITY_LEVELS]) {
    expect(validatePriorityLevelConfiguration(level)).toEqual([]);
  }
});

test("ValidateFlowSchemaSpec: matchingPrecedence 1..10000, 1 only for 'exempt', a distinguisher kube knows, a priority level name", () => {
  expect(messages(validateFlowSchema(flowSchema({ matchingPrecedence: 0 })))).toEqual([
    "spec.matchingPrecedence: Invalid value: 0: must be a positive value",
  ]);
  expect(messages(validateFlowSchema(flowSchema({ matchingPrecedence: 10001 })))).toEqual([
    "spec.matchingPrecedence: Invalid value: 10001: must not be greater than 10000",
  ]);
  expect(messages(validateFlowSchema(flowSchema({ matchingPrecedence: 1 })))).toEqual([
    "spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1",
  ]);
  expect(messages(validateFlowSchema(flowSchema({ distinguisherMethod: { type: "ByGroup" }, priorityLevelConfiguration: {} })))).toEqual([
    'spec.distinguisherMethod.type: Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:"ByGroup"}: supported values: "ByNamespace", "ByUser"',
    "spec.priorityLevelConfiguration.name: Required value: must reference a priority level",
  ]);
  expect(messages(validateFlowSchema(flowSchema({ priorityLevelConfiguration: { name: "Bad_Name" } })))[0]).toStartWith(
    'spec.priorityLevelConfiguration.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of',
  );
});

test("ValidateFlowSchemaPolicyRulesWithSubjects: subjects and at least one kind of rule are required", () => {
  expect(messages(validateFlowSchema(flowSchema({ rules: [{}] })))).toEqual([
    "spec.rules[0].subjects: Required value: subjects must contain at least one value",
    "spec.rules[0]: Required value: at least one of resourceRules and nonResourceRules has to be non-empty",
  ]);
});

test("ValidateFlowSchemaSubject: each kind needs its own member with a name and forbids the others", () => {
  const subjects = [
    { kind: "User" },
    { kind: "Group", group: { name: "" }, user: { name: "u" } },
    { kind: "ServiceAccount", serviceAccount: { name: "Bad_SA" }, group: { name: "g" } },
    { kind: "ServiceAccount", serviceAccount: { name: "*", namespace: "kube-system" } },
    { kind: "Robot" },
  ];
  const errors = messages(validateFlowSchema(flowSchema({ rules: [{ subjects, resourceRules: allResources }] })));
  expect(errors[0]).toBe("spec.rules[0].subjects[0].user: Required value: user is required when subject kind is 'User'");
  expect(errors.slice(1, 3)).toEqual([
    "spec.rules[0].subjects[1].group.name: Required value",
    "spec.rules[0].subjects[1].user: Forbidden: user is forbidden when subject kind is not 'User'",
  ]);
  expect(errors[3]).toStartWith('spec.rules[0].subjects[2].serviceAccount.name: Invalid value: "Bad_SA": a lowercase RFC 1123 subdomain');
  expect(errors.slice(4)).toEqual([
    "spec.rules[0].subjects[2].serviceAccount.namespace: Required value: must specify namespace for service account",
    "spec.rules[0].subjects[2].group: Forbidden: group is forbidden when subject kind is not 'Group'",
    'spec.rules[0].subjects[4].kind: Unsupported value: "Robot": supported values: "Group", "ServiceAccount", "User"',
  ]);
});

test("ValidateFlowSchemaResourcePolicyRule: verbs, api groups, resources and namespaces, '*' alone, clusterScope without namespaces", () => {
  const resourceRules = [
    {},
    { verbs: ["*", "get"], apiGroups: ["*", "apps"], resources: ["pods", "*"], namespaces: ["*", "default"] },
    { verbs: ["get", "fly"], apiGroups: [""], resources: ["pods"], namespaces: ["Bad"] },
    { verbs: ["list"], apiGroups: [""], resources: ["nodes"], clusterScope: true },
  ];
  expect(messages(validateFlowSchema(flowSchema({ rules: [{ subjects: everyone, resourceRules }] })))).toEqual([
    "spec.rules[0].resourceRules[0].verbs: Required value: verbs must contain at least one value",
    "spec.rules[0].resourceRules[0].apiGroups: Required value: resource rules must supply at least one api group",
    "spec.rules[0].resourceRules[0].resources: Required value: resource rules must supply at least one resource",
    "spec.rules[0].resourceRules[0].namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace",
    'spec.rules[0].resourceRules[1].verbs: Invalid value: []string{"*", "get"}: if \'*\' is present, must not specify other verbs',
    'spec.rules[0].resourceRules[1].apiGroups: Invalid value: []string{"*", "apps"}: if \'*\' is present, must not specify other api groups',
    'spec.rules[0].resourceRules[1].resources: Invalid value: []string{"pods", "*"}: if \'*\' is present, must not specify other resources',
    'spec.rules[0].resourceRules[1].namespaces: Invalid value: []string{"*", "default"}: if \'*\' is present, must not specify other namespaces',
    'spec.rules[0].resourceRules[2].verbs: Unsupported value: []string{"get", "fly"}: supported values: "create", "delete", ' +
    '"deletecollection", "get", "list", "patch", "proxy", "update", "watch"',
    "spec.rules[0].resourceRules[2].namespaces[0]: Invalid value: \"Bad\": each member of this list must be '*' or a DNS-1123 label; " +
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric " +
    "character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
  ]);
});

test("ValidateFlowSchemaNonResourcePolicyRule and ValidateNonResourceURLPath", () => {
  const nonResourceRules = [{ verbs: ["get"] }, { verbs: ["get"], nonResourceURLs: ["*", "/healthz"] }, {
    verbs: ["get"],
    nonResourceURLs: ["/", "healthz", "/a b", "//x", "/health*", "/*/*", "/apis/*"],
  }];
  expect(messages(validateFlowSchema(flowSchema({ rules: [{ subjects: everyone, nonResourceRules }] })))).toEqual([
    "spec.rules[0].nonResourceRules[0].nonResourceURLs: Required value: nonResourceURLs must contain at least one value",
    'spec.rules[0].nonResourceRules[1].nonResourceURLs: Invalid value: []string{"*", "/healthz"}: if \'*\' is present, must not specify other non-resource URLs',
    'spec.rules[0].nonResourceRules[2].nonResourceURLs[1]: Invalid value: "healthz": must start with slash',
    'spec.rules[0].nonResourceRules[2].nonResourceURLs[2]: Invalid value: "/a b": must not contain white-space',
    'spec.rules[0].nonResourceRules[2].nonResourceURLs[3]: Invalid value: "//x": must not contain double slash',
    'spec.rules[0].nonResourceRules[2].nonResourceURLs[4]: Invalid value: "/health*": wildcard can only do suffix matching',
    'spec.rules[0].nonResourceRules[2].nonResourceURLs[5]: Invalid value: "/*/*": wildcard can only do suffix matching',
  ]);
  expect(messages(validateNonResourceURLPath("", "p"))).toEqual(['p: Invalid value: "": must not be empty']);
});

test("ValidatePriorityLevelConfigurationSpec: type Exempt exactly for 'exempt', limited required for Limited and forbidden for Exempt", () => {
  const exemptNamed = { ...level({}), metadata: { name: "exempt" } };
  expect(messages(validatePriorityLevelConfiguration({ ...exemptNamed, spec: { type: "Limited" } }))).toEqual([
    "spec.type: Invalid value: \"Limited\": type must be 'Exempt' if and only if name is 'exempt'",
    "spec.limited: Required value: must not be empty when type is Limited",
    'spec: Invalid value: {"type":"Limited"}: spec of \'exempt\' must equal the fixed value',
  ]);
  const exemptTyped = { ...level({}), spec: { type: "Exempt", limited: { nominalConcurrencyShares: 1 } } };
  expect(messages(validatePriorityLevelConfiguration(exemptTyped))).toEqual([
    "spec.type: Invalid value: \"Exempt\": type must be 'Exempt' if and only if name is 'exempt'",
    "spec.limited: Forbidden: must be nil if the type is not Limited",
  ]);
  expect(messages(validatePriorityLevelConfiguration({ ...level({}), spec: { type: "Sometimes" } }))).toEqual([
    'spec.type: Unsupported value: "Sometimes": supported values: "Exempt", "Limited"',
  ]);
});

test("ValidateLimitedPriorityLevelConfiguration names the shares as the request's version does, then checks the borrowing percents", () => {
  expect(
    messages(validatePriorityLevelConfiguration(level({ nominalConcurrencyShares: 0, lendablePercent: 101, borrowingLimitPercent: -1 }))),
  )
    .toEqual([
      "spec.limited.nominalConcurrencyShares: Invalid value: 0: must be positive",
      "spec.limited.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive",
      "spec.limited.borrowingLimitPercent: Invalid value: -1: if specified, must be a non-negative integer",
    ]);
  const v1beta2 = level({ nominalConcurrencyShares: undefined, assuredConcurrencyShares: -3, lendablePercent: -1 }, V1BETA2);
  expect(messages(validatePriorityLevelConfiguration(v1beta2))).toEqual([
    "spec.limited.assuredConcurrencyShares: Invalid value: -3: must be positive",
    "spec.limited.lendablePercent: Invalid value: -1: must be between 0 and 100, inclusive",
  ]);
  expect(validatePriorityLevelConfiguration(level({ lendablePercent: 100, borrowingLimitPercent: 0 }))).toEqual([]);
});

test("ValidateLimitResponse and ValidatePriorityLevelQueuingConfiguration, with shuffle sharding's entropy limit", () => {
  expect(messages(validatePriorityLevelConfiguration(level({ limitResponse: { type: "Reject", queuing: {} } })))).toEqual([
    "spec.limited.limitResponse.queuing: Forbidden: must be nil if limited.limitResponse.type is not Limited",
  ]);
  expect(messages(validatePriorityLevelConfiguration(level({ limitResponse: { type: "Queue" } })))).toEqual([
    "spec.limited.limitResponse.queuing: Required value: must not be empty if limited.limitResponse.type is Limited",
  ]);
  expect(messages(validatePriorityLevelConfiguration(level({ limitResponse: { type: "Drop" } })))).toEqual([
    'spec.limited.limitResponse.type: Unsupported value: "Drop": supported values: "Queue", "Reject"',
  ]);
  expect(messages(validatePriorityLevelConfiguration(level(queue({ queues: 0, handSize: 0, queueLengthLimit: 0 }))))).toEqual([
    "spec.limited.limitResponse.queuing.queueLengthLimit: Invalid value: 0: must be positive",
    "spec.limited.limitResponse.queuing.queues: Invalid value: 0: must be positive",
    "spec.limited.limitResponse.queuing.handSize: Invalid value: 0: must be positive",
  ]);
  expect(messages(validatePriorityLevelConfiguration(level(queue({ queues: 10_000_001, handSize: 1, queueLengthLimit: 5 }))))).toEqual([
    "spec.limited.limitResponse.queuing.queues: Invalid value: 10000001: must not be greater than 10000000",
  ]);
  expect(messages(validatePriorityLevelConfiguration(level(queue({ queues: 4, handSize: 5, queueLengthLimit: 5 }))))).toEqual([
    "spec.limited.limitResponse.queuing.handSize: Invalid value: 5: should not be greater than queues (4)",
  ]);
  // ceil(log2(128) × 9) = 63 bits: more than the 60 a hash gives.
  expect(requiredEntropyBits(128, 9)).toBe(63);
  expect(messages(validatePriorityLevelConfiguration(level(queue({ queues: 128, handSize: 9, queueLengthLimit: 5 }))))).toEqual([
    "spec.limited.limitResponse.queuing.handSize: Invalid value: 9: required entropy bits of deckSize 128 and handSize 9 should not be greater than 60",
  ]);
});

test("the mandatory objects keep kube's spec in either version; other objects may change theirs", () => {
  const catchAll = structuredClone(MANDATORY_PRIORITY_LEVELS.find((l) => l.metadata.name === "catch-all")!);
  const asV1beta3 = level({ nominalConcurrencyShares: 5, lendablePercent: 0 }, V1BETA3, "catch-all");
  expect(validatePriorityLevelConfiguration(asV1beta3)).toEqual([]);
  const changed = level({ nominalConcurrencyShares: 50, lendablePercent: 0 }, V1BETA3, "catch-all");
  expect(messages(validatePriorityLevelConfiguration(changed))).toEqual([
    'spec: Invalid value: {"type":"Limited","limited":{"nominalConcurrencyShares":50,"limitResponse":{"type":"Reject"},"lendablePercent":0}}: ' +
    "spec of 'catch-all' must equal the fixed value",
  ]);
  expect(validatePriorityLevelConfiguration(catchAll)).toEqual([]);
  const exempt = structuredClone(MANDATORY_FLOW_SCHEMAS.find((s) => s.metadata.name === "exempt")!);
  (exempt.spec as Record<string, unknown>).matchingPrecedence = 2;
  expect(messages(validateFlowSchema(exempt))).toEqual([expect.stringContaining("spec of 'exempt' must equal the fixed value")]);
});

test("status: condition types present and distinct; a status write checks the status alone (Validate*StatusUpdate)", () => {
  const bad = { ...flowSchema({ matchingPrecedence: 0 }), status: { conditions: [{ type: "Dangling" }, { type: "Dangling" }, {}] } };
  const statusErrors = [
    'status.conditions[1].type: Duplicate value: "Dangling"',
    "status.conditions[2].type: Required value: must not be empty",
  ];
  expect(messages(flowControlUpdate(validateFlowSchema)(bad, bad, "status"))).toEqual(statusErrors);
  expect(messages(flowControlUpdate(validateFlowSchema)(bad, bad, ""))).toEqual([
    "spec.matchingPrecedence: Invalid value: 0: must be a positive value",
    ...statusErrors,
  ]);
});
