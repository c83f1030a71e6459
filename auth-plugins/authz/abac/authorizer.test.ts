import { expect, test } from "bun:test";
import { request } from "../../../core/auth/rbac/testing.ts";
import { abacAuthorizer } from "./authorizer.ts";
import type { PolicySpec } from "./policy.ts";

const policy = (spec: Partial<PolicySpec>): PolicySpec => ({
  user: "",
  group: "",
  readonly: false,
  apiGroup: "",
  namespace: "",
  resource: "",
  nonResourcePath: "",
  ...spec,
});
const alice = { username: "alice", groups: ["system:authenticated"] };

test("a readonly policy allows get, list and watch but has no opinion on writes", async () => {
  const authorizer = abacAuthorizer([policy({ user: "alice", readonly: true, apiGroup: "*", namespace: "*", resource: "*" })]);
  for (const verb of ["get", "list", "watch"]) expect((await authorizer.authorize(request({ user: alice, verb }))).decision).toBe("Allow");
  expect(await authorizer.authorize(request({ user: alice, verb: "create" }))).toEqual({
    decision: "NoOpinion",
    reason: "No policy matched.",
  });
});

test("namespace, resource and API group must match exactly unless they are *", async () => {
  const authorizer = abacAuthorizer([policy({ user: "alice", apiGroup: "apps", namespace: "team", resource: "deployments" })]);
  const deployments = { user: alice, apiGroup: "apps", namespace: "team", resource: "deployments" };
  expect((await authorizer.authorize(request(deployments))).decision).toBe("Allow");
  expect((await authorizer.authorize(request({ ...deployments, namespace: "other" }))).decision).toBe("NoOpinion");
  expect((await authorizer.authorize(request({ ...deployments, apiGroup: "" }))).decision).toBe("NoOpinion");
  expect((await authorizer.authorize(request({ ...deployments, resource: "pods" }))).decision).toBe("NoOpinion");
});

test("the subject matches by user name and by group, and both must match when both are set", async () => {
  const everything = { apiGroup: "*", namespace: "*", resource: "*" };
  const authorizer = abacAuthorizer([
    policy({ group: "system:unauthenticated", readonly: true, ...everything }),
    policy({ user: "bob", group: "ops", ...everything }),
  ]);
  expect((await authorizer.authorize(request({ user: { username: "system:anonymous", groups: ["system:unauthenticated"] } }))).decision)
    .toBe("Allow");
  expect((await authorizer.authorize(request({ user: alice }))).decision).toBe("NoOpinion");
  expect((await authorizer.authorize(request({ user: { username: "bob", groups: ["ops"] }, verb: "delete" }))).decision).toBe("Allow");
  expect((await authorizer.authorize(request({ user: { username: "bob", groups: [] }, verb: "delete" }))).decision).toBe("NoOpinion");
});

test("a non-resource path matches exactly, by * or by a trailing * prefix, and never a resource request", async () => {
  const authorizer = abacAuthorizer([
    policy({ user: "alice", nonResourcePath: "/healthz/*" }),
    policy({ user: "alice", nonResourcePath: "/version" }),
  ]);
  const path = (p: string) => request({ user: alice, isResourceRequest: false, path: p, resource: "", namespace: "", name: "" });
  expect((await authorizer.authorize(path("/healthz/ping"))).decision).toBe("Allow");
  expect((await authorizer.authorize(path("/version"))).decision).toBe("Allow");
  expect((await authorizer.authorize(path("/version/x"))).decision).toBe("NoOpinion");
  expect((await authorizer.authorize(request({ user: alice }))).decision).toBe("NoOpinion");
});

test("rulesFor() lists the user's policies in the namespace as rules", async () => {
  const authorizer = abacAuthorizer([
    policy({ user: "alice", readonly: true, apiGroup: "*", namespace: "*", resource: "pods", nonResourcePath: "/api" }),
    policy({ user: "alice", apiGroup: "", namespace: "elsewhere", resource: "secrets" }),
    policy({ user: "bob", apiGroup: "*", namespace: "*", resource: "*" }),
  ]);
  expect(await authorizer.rulesFor!(alice, "default")).toEqual({
    rules: [{ verbs: ["get", "list", "watch"], apiGroups: ["*"], resources: ["pods"] }, {
      verbs: ["get", "list", "watch"],
      nonResourceURLs: ["/api"],
    }],
    incomplete: false,
    errors: [],
  });
});
