/**
 * An empty namespace segment on a collection (/api/v1/namespaces//configmaps): go-restful's CurlyRouter matches
 * {namespace} with "" (matchesRouteByPathTokens checks no value of a parameter without a regexp) and
 * RequestInfoFactory's splitPath keeps the empty segment, so every collection verb reaches its handler with the
 * namespace "": LIST and WATCH span every namespace; CREATE's rest.EnsureObjectNamespaceMatchesRequestNamespace clears
 * the body's namespace and validation answers metadata.namespace Required (422); DELETECOLLECTION lists every
 * namespace and Store.DeleteCollection's first per-item Delete fails in NamespaceKeyFunc (400 Namespace parameter
 * required.), deleting nothing.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";
import { rawExchange, rawRequest } from "./_raw-request.ts";

const COLLECTION = "/api/v1/namespaces//configmaps";
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await kubectlOk(server, ["create", "configmap", "kept", "--from-literal=k=v"]);
});
afterAll(() => server?.stop());

async function send(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const text = body === undefined ? "" : JSON.stringify(body);
  const reply = (await rawExchange(
    server,
    `${method} ${path} HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  )).toString();
  return { status: Number(reply.split(" ")[1]), body: JSON.parse(reply.slice(reply.indexOf("\r\n\r\n") + 4)) };
}

const allConfigMaps = () => kubectlOk(server, ["get", "configmaps", "-A", "-o", "name"]);

test("EnsureObjectNamespaceMatchesRequestNamespace then validation: POST namespaces//configmaps is 422 metadata.namespace Required, with or without a namespace in the body", async () => {
  const before = await allConfigMaps();
  for (const metadata of [{ name: "nowhere" }, { name: "nowhere", namespace: "default" }]) {
    const answer = await send("POST", COLLECTION, { apiVersion: "v1", kind: "ConfigMap", metadata });
    expect({ metadata, status: answer.status, message: answer.body.message }).toEqual({
      metadata,
      status: 422,
      message: 'ConfigMap "nowhere" is invalid: metadata.namespace: Required value',
    });
  }
  const created = await send("POST", "/apis/apps/v1/namespaces//deployments", {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "nowhere" },
    spec: {
      selector: { matchLabels: { a: "b" } },
      template: { metadata: { labels: { a: "b" } }, spec: { containers: [{ name: "c", image: "nginx" }] } },
    },
  });
  expect(created.status).toBe(422);
  expect(await allConfigMaps()).toBe(before);
});

test("Store.DeleteCollection: DELETE namespaces//configmaps is 400 Namespace parameter required. (NamespaceKeyFunc) and deletes nothing", async () => {
  const before = await allConfigMaps();
  const answer = await send("DELETE", COLLECTION);
  expect({ status: answer.status, message: answer.body.message }).toEqual({ status: 400, message: "Namespace parameter required." });
  expect(await allConfigMaps()).toBe(before);
  expect(before).toContain("configmap/kept");
});

test("Store.DeleteCollection: with nothing selected DELETE namespaces//configmaps deletes nothing and answers the empty list", async () => {
  const answer = await send("DELETE", `${COLLECTION}?labelSelector=absent%3Dlabel`);
  expect({ status: answer.status, kind: answer.body.kind, items: answer.body.items }).toEqual({
    status: 200,
    kind: "ConfigMapList",
    items: [],
  });
});

test('ListResource with the namespace "": a watch on namespaces//configmaps sees every namespace', async () => {
  const { status, body } = await rawRequest(server, "GET", `${COLLECTION}?watch=1&timeoutSeconds=1`);
  expect(status).toBe(200);
  const seen = body.trim().split("\n").map((line) => {
    const { object } = JSON.parse(line);
    return `${object.metadata.namespace}/${object.metadata.name}`;
  });
  expect(seen).toContain("default/kept");
  expect(seen).toContain("kube-system/kube-root-ca.crt");
});
