/** Access reviews end to end (spec 2.11): kubectl auth can-i, --list, --as, and the four review kinds over HTTP. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { expectStatus, sendJson } from "./_api.ts";
import { createUser, type TestUser } from "./_users.ts";

let server: TestServer;
let viewer: TestUser;

beforeAll(async () => {
  server = await startServer(["--authorization-mode", "RBAC"]);
  viewer = await createUser(server, "reviewer");
  expect((await server.kubectl(["create", "rolebinding", "reviewer-view", "--clusterrole=view", "--user=reviewer", "-n", "default"])).code)
    .toBe(0);
});
afterAll(() => server.stop());

const review = (kind: string, spec: unknown, namespace?: string) => ({
  apiVersion: "authorization.k8s.io/v1",
  kind,
  metadata: namespace ? { namespace } : {},
  spec,
});

test("kubectl auth can-i answers from the user's bindings", async () => {
  expect(await viewer.kubectl(["auth", "can-i", "get", "pods"])).toMatchObject({ code: 0, stdout: "yes\n" });
  expect(await viewer.kubectl(["auth", "can-i", "create", "pods"])).toMatchObject({ code: 1, stdout: "no\n" });
  expect(await viewer.kubectl(["auth", "can-i", "get", "pods", "-n", "kube-system"])).toMatchObject({ code: 1, stdout: "no\n" });
});

test("kubectl auth can-i --list prints the user's rules in the namespace", async () => {
  const { code, stdout } = await viewer.kubectl(["auth", "can-i", "--list"]);
  expect(code).toBe(0);
  const lines = stdout.split("\n").map((line) => line.trim().split(/\s{2,}/));
  expect(lines[0]).toEqual(["Resources", "Non-Resource URLs", "Resource Names", "Verbs"]);
  expect(lines).toContainEqual(["pods", "[]", "[]", "[get list watch]"]);
  expect(lines).toContainEqual(["selfsubjectaccessreviews.authorization.k8s.io", "[]", "[]", "[create]"]);
  expect(lines).toContainEqual(["[/version]", "[]", "[get]"]);
  expect(lines.some((l) => l[0] === "secrets")).toBe(false);
});

test("kubectl auth can-i --as asks as the impersonated user", async () => {
  expect(await server.kubectl(["auth", "can-i", "create", "deployments", "--as", "bob"])).toMatchObject({ code: 1, stdout: "no\n" });
  expect((await server.kubectl(["create", "rolebinding", "bob-edit", "--clusterrole=edit", "--user=bob", "-n", "default"])).code).toBe(0);
  expect(await server.kubectl(["auth", "can-i", "create", "deployments", "--as", "bob"])).toMatchObject({ code: 0, stdout: "yes\n" });
});

test("a SelfSubjectAccessReview is answered with 201 and a status, and only POST is served", async () => {
  const answer = await sendJson(
    server,
    "POST",
    "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
    review("SelfSubjectAccessReview", {
      resourceAttributes: { verb: "delete", resource: "nodes" },
    }),
  );
  expect(answer.status).toBe(201);
  expect(answer.body).toMatchObject({
    kind: "SelfSubjectAccessReview",
    spec: { resourceAttributes: { verb: "delete", resource: "nodes" } },
  });
  // system:masters is allowed before any binding is consulted, so there is no reason (as in kube).
  expect(answer.body.status).toEqual({ allowed: true });
  const get = await sendJson(server, "GET", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews");
  expect(get.status).toBe(405);
  const invalid = await sendJson(
    server,
    "POST",
    "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
    review("SelfSubjectAccessReview", {}),
  );
  expectStatus(invalid, 422, "Invalid", /exactly one of nonResourceAttributes or resourceAttributes must be specified/);
});

test("a SubjectAccessReview and a LocalSubjectAccessReview ask about the user in the spec", async () => {
  const sar = await sendJson(
    server,
    "POST",
    "/apis/authorization.k8s.io/v1/subjectaccessreviews",
    review("SubjectAccessReview", {
      user: "reviewer",
      resourceAttributes: { verb: "list", resource: "configmaps", namespace: "default" },
    }),
  );
  expect([sar.status, sar.body.status.allowed]).toEqual([201, true]);
  const nobody = await sendJson(
    server,
    "POST",
    "/apis/authorization.k8s.io/v1/subjectaccessreviews",
    review("SubjectAccessReview", { resourceAttributes: { verb: "get" } }),
  );
  expectStatus(nobody, 422, "Invalid", /spec.user: Invalid value: "": at least one of user or group must be specified/);

  const local = (pathNamespace: string, namespace: string) =>
    sendJson(
      server,
      "POST",
      `/apis/authorization.k8s.io/v1/namespaces/${pathNamespace}/localsubjectaccessreviews`,
      review("LocalSubjectAccessReview", {
        user: "reviewer",
        resourceAttributes: { verb: "create", resource: "configmaps", namespace },
      }, namespace),
    );
  const denied = await local("default", "default");
  expect([denied.status, denied.body.status]).toEqual([201, { allowed: false }]);
  expectStatus(
    await local("kube-system", "default"),
    400,
    "BadRequest",
    "spec.resourceAttributes.namespace must match namespace: kube-system",
  );
});

test("a SelfSubjectRulesReview lists resource and non-resource rules, and needs a namespace", async () => {
  const path = "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews";
  const answer = await sendJson(server, "POST", path, review("SelfSubjectRulesReview", { namespace: "default" }));
  expect(answer.status).toBe(201);
  expect(answer.body.status.incomplete).toBe(false);
  expect(answer.body.status.resourceRules).toContainEqual({ verbs: ["*"], apiGroups: ["*"], resources: ["*"] });
  expect(answer.body.status.resourceRules).toContainEqual({
    verbs: ["create"],
    apiGroups: ["authorization.k8s.io"],
    resources: ["selfsubjectaccessreviews", "selfsubjectrulesreviews"],
  });
  expect(answer.body.status.nonResourceRules).toContainEqual({ verbs: ["*"], nonResourceURLs: ["*"] });
  expectStatus(await sendJson(server, "POST", path, review("SelfSubjectRulesReview", {})), 400, "BadRequest", "no namespace on request");
});

test("under AlwaysAllow the rules review answers alwaysAllowAuthorizer.RulesFor: everything, complete", async () => {
  const open = await startServer(["--authorization-mode", "AlwaysAllow"]);
  try {
    const answer = await sendJson(
      open,
      "POST",
      "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews",
      review("SelfSubjectRulesReview", { namespace: "default" }),
    );
    expect([answer.status, answer.body.status]).toEqual([201, {
      resourceRules: [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"] }],
      nonResourceRules: [{ verbs: ["*"], nonResourceURLs: ["*"] }],
      incomplete: false,
    }]);
  } finally {
    await open.stop();
  }
});

test("a SubjectAccessReview's reason names the binding's first applying subject, in the binding's order (kube's appliesTo)", async () => {
  expect((await server.kubectl(["create", "namespace", "idn"])).code).toBe(0);
  expect((await server.kubectl(["create", "role", "r1", "--verb=get", "--resource=pods", "-n", "idn"])).code).toBe(0);
  const binding = await sendJson(server, "POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/idn/rolebindings", {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "RoleBinding",
    metadata: { name: "b1" },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "r1" },
    subjects: [
      { apiGroup: "rbac.authorization.k8s.io", kind: "Group", name: "g1" },
      { apiGroup: "rbac.authorization.k8s.io", kind: "User", name: "bob" },
    ],
  });
  expect(binding.status).toBe(201);
  const sar = await sendJson(
    server,
    "POST",
    "/apis/authorization.k8s.io/v1/subjectaccessreviews",
    review("SubjectAccessReview", {
      user: "bob",
      groups: ["g1"],
      resourceAttributes: { verb: "get", resource: "pods", namespace: "idn" },
    }),
  );
  expect([sar.status, sar.body.status]).toEqual([
    201,
    { allowed: true, reason: 'RBAC: allowed by RoleBinding "b1/idn" of Role "r1" to Group "g1"' },
  ]);
});
