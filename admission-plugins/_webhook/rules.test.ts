import { expect, test } from "bun:test";
import { isExemptFromWebhooks, ruleMatches, type RuleSubject } from "./rules.ts";

const pods = { group: "", version: "v1", resource: "pods" };
const podCreate: RuleSubject = { operation: "CREATE", resource: pods, subresource: "", namespace: "team" };
const allPods = { operations: ["*"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"] };

test("ruleMatches() honours operations, groups and versions, with * as a wildcard", () => {
  expect(ruleMatches(allPods, podCreate)).toBe(true);
  expect(ruleMatches({ ...allPods, operations: ["UPDATE"] }, podCreate)).toBe(false);
  expect(ruleMatches({ ...allPods, apiGroups: ["apps"] }, podCreate)).toBe(false);
  expect(ruleMatches({ ...allPods, apiGroups: ["*"], apiVersions: ["*"] }, podCreate)).toBe(true);
  expect(ruleMatches({ ...allPods, apiVersions: ["v2"] }, podCreate)).toBe(false);
});

test("ruleMatches() resource patterns: * skips subresources, */* and pods/* and */status include them", () => {
  // As in kube's matcher, a `*` subresource part also matches the main resource.
  const status = { ...podCreate, operation: "UPDATE" as const, subresource: "status" };
  const rule = (resources: string[]) => ({ ...allPods, resources });
  expect(ruleMatches(rule(["*"]), podCreate)).toBe(true);
  expect(ruleMatches(rule(["*"]), status)).toBe(false);
  expect(ruleMatches(rule(["pods"]), status)).toBe(false);
  expect(ruleMatches(rule(["*/*"]), status)).toBe(true);
  expect(ruleMatches(rule(["pods/*"]), status)).toBe(true);
  expect(ruleMatches(rule(["pods/*"]), podCreate)).toBe(true);
  expect(ruleMatches(rule(["pods/*"]), { ...status, resource: { ...pods, resource: "nodes" } })).toBe(false);
  expect(ruleMatches(rule(["*/status"]), status)).toBe(true);
  expect(ruleMatches(rule(["*/status"]), { ...status, subresource: "binding" })).toBe(false);
});

test("ruleMatches() scope: Namespaced needs a namespace, Cluster takes cluster-scoped requests and Namespaces", () => {
  const nodes: RuleSubject = {
    operation: "CREATE",
    resource: { group: "", version: "v1", resource: "nodes" },
    subresource: "",
    namespace: "",
  };
  const namespaceUpdate: RuleSubject = {
    operation: "UPDATE",
    resource: { group: "", version: "v1", resource: "namespaces" },
    subresource: "",
    namespace: "team",
  };
  const any = { operations: ["*"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*"] };
  expect(ruleMatches({ ...any, scope: "Namespaced" }, podCreate)).toBe(true);
  expect(ruleMatches({ ...any, scope: "Namespaced" }, nodes)).toBe(false);
  expect(ruleMatches({ ...any, scope: "Namespaced" }, namespaceUpdate)).toBe(false);
  expect(ruleMatches({ ...any, scope: "Cluster" }, nodes)).toBe(true);
  expect(ruleMatches({ ...any, scope: "Cluster" }, namespaceUpdate)).toBe(true);
  expect(ruleMatches({ ...any, scope: "Cluster" }, podCreate)).toBe(false);
  expect(ruleMatches({ ...any, scope: "*" }, nodes)).toBe(true);
});

test("isExemptFromWebhooks() covers webhook configurations but not other admissionregistration kinds' neighbours", () => {
  expect(isExemptFromWebhooks({ group: "admissionregistration.k8s.io", version: "v1", resource: "mutatingwebhookconfigurations" })).toBe(
    true,
  );
  expect(isExemptFromWebhooks({ group: "admissionregistration.k8s.io", version: "v1", resource: "validatingwebhookconfigurations" })).toBe(
    true,
  );
  expect(isExemptFromWebhooks(pods)).toBe(false);
});
