/** Namespace lifecycle, default ServiceAccount, kube-root-ca.crt and legacy token Secrets, with the real kubectl. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Buffer } from "node:buffer";
import { startServer, type TestServer } from "./harness.ts";
import { getJson, type Json, sendJson } from "./_api.ts";
import { kubectlUntil } from "./_workloads.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server?.stop();
});

test("default, kube-system, kube-public and kube-node-lease exist from the first start", async () => {
  const list = await getJson(server, "/api/v1/namespaces");
  expect(list.items.map((ns: Json) => ns.metadata.name)).toEqual(
    expect.arrayContaining(["default", "kube-node-lease", "kube-public", "kube-system"]),
  );
});

test("a new namespace gets the default ServiceAccount and the kube-root-ca.crt ConfigMap", async () => {
  expect((await server.kubectl(["create", "namespace", "fresh"])).code).toBe(0);
  await kubectlUntil(
    server,
    ["get", "serviceaccount", "default", "-n", "fresh", "-o", "name"],
    (out) => out.trim() === "serviceaccount/default",
  );
  const ca = await kubectlUntil(
    server,
    ["get", "configmap", "kube-root-ca.crt", "-n", "fresh", "-o", "jsonpath={.data.ca\\.crt}"],
    (out) => out.length > 0,
  );
  expect(ca).toStartWith("-----BEGIN CERTIFICATE-----");
});

test("deleting a namespace shows Terminating with kube's conditions until its content is gone", async () => {
  await server.kubectl(["create", "namespace", "doomed"]);
  const held = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "held", namespace: "doomed", finalizers: ["example.com/hold"] } };
  expect((await server.kubectl(["create", "-f", "-"], { stdin: JSON.stringify(held) })).code).toBe(0);
  await server.kubectl(["create", "configmap", "plain", "-n", "doomed"]);
  expect((await server.kubectl(["delete", "namespace", "doomed", "--wait=false"])).code).toBe(0);
  const terminating = JSON.parse(
    await kubectlUntil(server, ["get", "namespace", "doomed", "-o", "json"], (out) => {
      const types = (JSON.parse(out).status.conditions ?? []).map((c: Json) => c.type);
      return types.includes("NamespaceFinalizersRemaining");
    }),
  );
  expect(terminating.status.phase).toBe("Terminating");
  expect(terminating.spec.finalizers).toEqual(["kubernetes"]);
  const remaining = terminating.status.conditions.find((c: Json) => c.type === "NamespaceFinalizersRemaining");
  expect(remaining).toMatchObject({ status: "True", reason: "SomeFinalizersRemain" });
  await kubectlUntil(server, ["get", "configmaps", "-n", "doomed", "-o", "name"], (out) => out.trim() === "configmap/held");
  await server.kubectl(["patch", "configmap", "held", "-n", "doomed", "--type=merge", "-p", '{"metadata":{"finalizers":null}}']);
  await kubectlUntil(server, ["get", "namespaces", "-o", "name"], (out) => !out.includes("namespace/doomed"));
});

test("a legacy token Secret is filled with a token that authenticates as its ServiceAccount", async () => {
  await server.kubectl(["create", "serviceaccount", "robot"]);
  const secret = {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: "robot-token", namespace: "default", annotations: { "kubernetes.io/service-account.name": "robot" } },
    type: "kubernetes.io/service-account-token",
  };
  expect((await server.kubectl(["create", "-f", "-"], { stdin: JSON.stringify(secret) })).code).toBe(0);
  const encoded = await kubectlUntil(server, ["get", "secret", "robot-token", "-o", "jsonpath={.data.token}"], (out) => out.length > 0);
  const token = Buffer.from(encoded, "base64").toString();
  const review = await sendJson(server, "POST", "/apis/authentication.k8s.io/v1/tokenreviews", {
    apiVersion: "authentication.k8s.io/v1",
    kind: "TokenReview",
    spec: { token },
  });
  expect(review.body.status).toMatchObject({ authenticated: true, user: { username: "system:serviceaccount:default:robot" } });
  const asRobot = await server.requestAnonymous("GET", "/api/v1/namespaces/default/configmaps", {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(asRobot.status).toBe(200);
  const forged = await server.requestAnonymous("GET", "/api/v1/namespaces/default/configmaps", {
    headers: { Authorization: `Bearer ${token}x` },
  });
  expect(forged.status).toBe(401);
  await server.kubectl(["delete", "serviceaccount", "robot"]);
  await kubectlUntil(server, ["get", "secrets", "-o", "name"], (out) => !out.includes("secret/robot-token"));
});
