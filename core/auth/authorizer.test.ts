import { expect, test } from "bun:test";
import { type Attributes, type Authorizer, type Decision, newAuthorizationForbidden, unionAuthorizer } from "./authorizer.ts";

const attributes = (overrides: Partial<Attributes> = {}): Attributes => ({
  user: { username: "u", groups: [] },
  verb: "get",
  isResourceRequest: true,
  path: "/api/v1/namespaces/default/pods/x",
  apiGroup: "",
  apiVersion: "v1",
  namespace: "default",
  resource: "pods",
  subresource: "",
  name: "x",
  ...overrides,
});
const deciding = (decision: Decision, reason?: string): Authorizer => ({ authorize: () => Promise.resolve({ decision, reason }) });

test("unionAuthorizer() lets the first authorizer with an opinion decide", async () => {
  expect((await unionAuthorizer([deciding("NoOpinion"), deciding("Deny", "no"), deciding("Allow")]).authorize(attributes())).decision).toBe(
    "Deny",
  );
  expect(await unionAuthorizer([deciding("NoOpinion", "a"), deciding("NoOpinion", "b")]).authorize(attributes())).toEqual({
    decision: "NoOpinion",
    reason: "a\nb",
  });
});

test("newAuthorizationForbidden() writes kube's messages for named, collection, cluster and non-resource requests", () => {
  expect(newAuthorizationForbidden(attributes()).message).toBe(
    'pods "x" is forbidden: User "u" cannot get resource "pods" in API group "" in the namespace "default"',
  );
  expect(
    newAuthorizationForbidden(attributes({ verb: "list", name: "", apiGroup: "apps", resource: "deployments", namespace: "" })).message,
  )
    .toBe('deployments.apps is forbidden: User "u" cannot list resource "deployments" in API group "apps" at the cluster scope');
  expect(newAuthorizationForbidden(attributes({ subresource: "log" }), "RBAC: denied").message)
    .toBe('pods "x" is forbidden: User "u" cannot get resource "pods/log" in API group "" in the namespace "default": RBAC: denied');
  const nonResource = newAuthorizationForbidden(attributes({ isResourceRequest: false, path: "/metrics", resource: "" }));
  expect([nonResource.code, nonResource.reason, nonResource.message]).toEqual([
    403,
    "Forbidden",
    'forbidden: User "u" cannot get path "/metrics"',
  ]);
});

test("unionAuthorizer() (kube's union.Authorize) decides at once when its members do, and waits only from the first that waits", async () => {
  const atOnce = (decision: Decision, reason?: string): Authorizer => ({ authorize: () => ({ decision, reason }) });
  expect(unionAuthorizer([atOnce("NoOpinion"), atOnce("Allow")]).authorize(attributes())).toEqual({ decision: "Allow" });
  const mixed = unionAuthorizer([atOnce("NoOpinion", "a"), deciding("NoOpinion", "b"), atOnce("Deny", "c")]).authorize(attributes());
  expect(mixed).toBeInstanceOf(Promise);
  expect(await mixed).toEqual({ decision: "Deny", reason: "c" });
  expect(await unionAuthorizer([atOnce("NoOpinion", "a"), deciding("NoOpinion", "b")]).authorize(attributes())).toEqual({
    decision: "NoOpinion",
    reason: "a\nb",
  });
});
