/** kubectl list features against kubun: chunked lists, label and field selectors, namespace deletion. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createConfigMap, createNamespace, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, "select");
  await Promise.all([
    createConfigMap(server, "select", "a", { labels: { app: "web", env: "a" } }),
    createConfigMap(server, "select", "b", { labels: { app: "web", env: "b" } }),
    createConfigMap(server, "select", "c", { labels: { app: "db", env: "c", x: "1" } }),
    createConfigMap(server, "select", "d", { labels: { app: "web", x: "1" } }),
  ]);
});
afterAll(async () => {
  await server?.stop();
});

async function names(args: string[]): Promise<string[]> {
  const result = await server.kubectl(["get", "configmaps", "-n", "select", "-o", "jsonpath={.items[*].metadata.name}", ...args]);
  expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 0, stderr: "" });
  return result.stdout.split(" ").filter((name) => ["a", "b", "c", "d"].includes(name)).sort();
}

test("kubectl get --chunk-size=2 lists all 25 objects through continue tokens", async () => {
  await createNamespace(server, "chunks");
  const created = Array.from({ length: 25 }, (_, i) => `cm-${String(i).padStart(2, "0")}`);
  await Promise.all(created.map((name) => createConfigMap(server, "chunks", name)));

  const result = await server.kubectl(["get", "configmaps", "-n", "chunks", "--chunk-size=2", "-o", "name", "-v=6"]);
  expect(result.code).toBe(0);
  const listed = result.stdout.trim().split("\n").map((line) => line.replace("configmap/", "")).filter((name) => name.startsWith("cm-"));
  expect(listed).toEqual(created);
  // kubectl logs each request at -v=6: at least 13 pages of 2 were fetched, all but the first with a continue token.
  const pages = result.stderr.split("\n").filter((line) => /GET https:\S+\/configmaps\?\S*limit=2\S* 200 OK/.test(line));
  expect(pages.length).toBeGreaterThanOrEqual(13);
  expect(pages.filter((line) => line.includes("continue=")).length).toBe(pages.length - 1);
});

test("kubectl get -l app=web selects by label equality", async () => {
  expect(await names(["-l", "app=web"])).toEqual(["a", "b", "d"]);
});

test("kubectl get -l 'env in (a,b)' selects by set membership", async () => {
  expect(await names(["-l", "env in (a,b)"])).toEqual(["a", "b"]);
});

test("kubectl get -l '!x' selects objects without the label", async () => {
  expect(await names(["-l", "!x"])).toEqual(["a", "b"]);
});

test("kubectl get -l combines requirements with AND", async () => {
  expect(await names(["-l", "app=web,x"])).toEqual(["d"]);
  expect(await names(["-l", "app!=web"])).toEqual(["c"]);
});

test("kubectl get --field-selector metadata.name=b selects one object", async () => {
  expect(await names(["--field-selector", "metadata.name=b"])).toEqual(["b"]);
  expect(await names(["--field-selector", "metadata.name!=b"])).toEqual(["a", "c", "d"]);
});

test("kubectl get with an unknown field selector fails with the server's BadRequest", async () => {
  const result = await server.kubectl(["get", "configmaps", "-n", "select", "--field-selector", "spec.nodeName=x"]);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain("Error from server (BadRequest)");
  expect(result.stderr).toContain('"spec.nodeName" is not a known field selector');
});

test("kubectl delete namespace deletes the objects in it, then the namespace", async () => {
  await createNamespace(server, "doomed");
  await createConfigMap(server, "doomed", "inside");
  const secret = await sendJson(server, "POST", "/api/v1/namespaces/doomed/secrets", {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: "s" },
    data: {},
  });
  expect(secret.status).toBe(201);

  // kubectl waits until the namespace is really gone (its finalizer ran).
  const deleted = await server.kubectl(["delete", "namespace", "doomed", "--timeout=25s"]);
  expect({ code: deleted.code, stdout: deleted.stdout, stderr: deleted.stderr }).toEqual({
    code: 0,
    stdout: 'namespace "doomed" deleted\n',
    stderr: "",
  });

  const namespace = await sendJson(server, "GET", "/api/v1/namespaces/doomed");
  expect(namespace.status).toBe(404);
  const leftovers = await sendJson(server, "GET", "/api/v1/configmaps?fieldSelector=metadata.namespace%3Ddoomed");
  expect(leftovers.body.items).toEqual([]);
  const secrets = await sendJson(server, "GET", "/api/v1/secrets?fieldSelector=metadata.namespace%3Ddoomed");
  expect(secrets.body.items).toEqual([]);
});
