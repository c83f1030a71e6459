import { expect, test } from "bun:test";
import { type AuditAttributes, policyRuleEvaluator } from "./checker.ts";
import { parsePolicy } from "./policy.ts";

function evaluatorOf(yaml: string) {
  return policyRuleEvaluator(parsePolicy(`apiVersion: audit.k8s.io/v1\nkind: Policy\n${yaml}`));
}

const alice = { username: "alice", groups: ["devs", "system:authenticated"] };

function resource(overrides: Partial<AuditAttributes> = {}): AuditAttributes {
  return {
    user: alice,
    verb: "get",
    isResourceRequest: true,
    path: "/api/v1/namespaces/ns/pods/p",
    apiGroup: "",
    namespace: "ns",
    resource: "pods",
    subresource: "",
    name: "p",
    ...overrides,
  };
}

function nonResource(path: string): AuditAttributes {
  return { user: alice, verb: "get", isResourceRequest: false, path, apiGroup: "", namespace: "", resource: "", subresource: "", name: "" };
}

test("ruleMatches: the first matching rule decides; no match is level None (DefaultAuditLevel)", () => {
  const evaluate = evaluatorOf("rules:\n- level: Request\n  users: [bob]\n- level: Metadata\n  userGroups: [devs]\n");
  expect(evaluate(resource()).level).toBe("Metadata");
  expect(evaluate(resource({ user: { username: "bob", groups: [] } })).level).toBe("Request");
  expect(evaluate(resource({ user: { username: "carol", groups: [] } })).level).toBe("None");
  expect(evaluate(resource({ user: undefined })).level).toBe("None");
});

test("ruleMatches: verbs, namespaces (cluster-scoped is the empty namespace)", () => {
  const evaluate = evaluatorOf("rules:\n- level: Request\n  verbs: [watch]\n- level: Metadata\n  namespaces: ['']\n");
  expect(evaluate(resource({ verb: "watch" })).level).toBe("Request");
  expect(evaluate(resource()).level).toBe("None");
  expect(evaluate(resource({ namespace: "", resource: "nodes" })).level).toBe("Metadata");
  expect(evaluate(nonResource("/healthz")).level).toBe("None");
});

test("ruleMatchesResource: group, resource/subresource, *, */subresource, resource/*, resourceNames", () => {
  const evaluate = evaluatorOf(`rules:
- level: RequestResponse
  resources: [{group: "", resources: ["pods/log"]}]
- level: Request
  resources: [{group: "", resources: ["*/status"]}]
- level: Metadata
  resources: [{group: "apps", resources: ["deployments/*"]}]
- level: Request
  resources: [{group: "", resources: ["configmaps"], resourceNames: ["special"]}]
- level: Metadata
  resources: [{group: "batch"}]
`);
  expect(evaluate(resource({ subresource: "log" })).level).toBe("RequestResponse");
  expect(evaluate(resource({ subresource: "status" })).level).toBe("Request");
  expect(evaluate(resource()).level).toBe("None");
  expect(evaluate(resource({ apiGroup: "apps", resource: "deployments" })).level).toBe("Metadata");
  expect(evaluate(resource({ apiGroup: "apps", resource: "deployments", subresource: "scale" })).level).toBe("Metadata");
  expect(evaluate(resource({ resource: "configmaps", name: "special" })).level).toBe("Request");
  expect(evaluate(resource({ resource: "configmaps", name: "other" })).level).toBe("None");
  expect(evaluate(resource({ apiGroup: "batch", resource: "jobs" })).level).toBe("Metadata");
  // A resource rule never matches a non-resource request.
  expect(evaluate(nonResource("/api")).level).toBe("None");
});

test("pathMatches: *, exact paths and trailing-* prefixes; never resource requests", () => {
  const evaluate = evaluatorOf(
    "rules:\n- level: None\n  nonResourceURLs: ['/healthz*', '/version']\n- level: Metadata\n  nonResourceURLs: ['*']\n",
  );
  expect(evaluate(nonResource("/healthz/etcd")).level).toBe("None");
  expect(evaluate(nonResource("/version")).level).toBe("None");
  expect(evaluate(nonResource("/versions")).level).toBe("Metadata");
  expect(evaluate(resource()).level).toBe("None");
});

test("NewPolicyRuleEvaluator: omitStages are the union of the policy's and the rule's; omitManagedFields falls back to the policy's", () => {
  const evaluate = evaluatorOf(
    "omitStages: [RequestReceived]\nomitManagedFields: true\nrules:\n- level: Metadata\n  verbs: [get]\n  omitStages: [ResponseStarted]\n  omitManagedFields: false\n- level: Request\n",
  );
  const get = evaluate(resource());
  expect(get.omitStages.sort()).toEqual(["RequestReceived", "ResponseStarted"]);
  expect(get.omitManagedFields).toBe(false);
  const list = evaluate(resource({ verb: "list" }));
  expect(list.omitStages).toEqual(["RequestReceived"]);
  expect(list.omitManagedFields).toBe(true);
});
