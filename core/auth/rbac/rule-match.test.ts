import { expect, test } from "bun:test";
import { request } from "./testing.ts";
import { ruleAllows } from "./rule-match.ts";

test("ruleAllows() matches verbs, groups and resources exactly or by *", () => {
  const rule = { apiGroups: [""], resources: ["pods"], verbs: ["get", "list"] };
  expect(ruleAllows(request(), rule)).toBe(true);
  expect(ruleAllows(request({ verb: "delete" }), rule)).toBe(false);
  expect(ruleAllows(request({ apiGroup: "apps" }), rule)).toBe(false);
  expect(ruleAllows(request({ resource: "secrets" }), rule)).toBe(false);
  expect(
    ruleAllows(request({ verb: "delete", apiGroup: "apps", resource: "deployments" }), {
      apiGroups: ["*"],
      resources: ["*"],
      verbs: ["*"],
    }),
  ).toBe(true);
});

test("ruleAllows() needs the subresource named, as resource/subresource or */subresource", () => {
  const log = request({ subresource: "log" });
  expect(ruleAllows(log, { apiGroups: [""], resources: ["pods"], verbs: ["get"] })).toBe(false);
  expect(ruleAllows(log, { apiGroups: [""], resources: ["pods/log"], verbs: ["get"] })).toBe(true);
  expect(ruleAllows(log, { apiGroups: [""], resources: ["*/log"], verbs: ["get"] })).toBe(true);
  expect(ruleAllows(log, { apiGroups: [""], resources: ["*/status"], verbs: ["get"] })).toBe(false);
  expect(ruleAllows(request(), { apiGroups: [""], resources: ["*/log"], verbs: ["get"] })).toBe(false);
});

test("ruleAllows() with resourceNames allows only those names, so never a list", () => {
  const rule = { apiGroups: [""], resources: ["pods"], resourceNames: ["p"], verbs: ["get", "list"] };
  expect(ruleAllows(request(), rule)).toBe(true);
  expect(ruleAllows(request({ name: "q" }), rule)).toBe(false);
  expect(ruleAllows(request({ verb: "list", name: "" }), rule)).toBe(false);
});

test("ruleAllows() matches non-resource paths exactly or by a trailing *", () => {
  const healthz = request({ isResourceRequest: false, path: "/healthz/etcd", resource: "", namespace: "" });
  expect(ruleAllows(healthz, { nonResourceURLs: ["/healthz/*"], verbs: ["get"] })).toBe(true);
  expect(ruleAllows(healthz, { nonResourceURLs: ["/healthz"], verbs: ["get"] })).toBe(false);
  expect(ruleAllows(healthz, { nonResourceURLs: ["*"], verbs: ["post"] })).toBe(false);
  expect(ruleAllows(healthz, { apiGroups: ["*"], resources: ["*"], verbs: ["*"] })).toBe(false);
});
