/**
 * Large lists share the server (issue 20, item 6): a list is decoded and written in pieces, one piece per
 * event-loop turn across all requests, so health checks and other clients are answered while many large lists
 * are being served, and each list still arrives complete and identical to the unstreamed form.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createNamespace, type Json } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

const NS = "flood";
const COUNT = 3000;
const COLLECTION = `/api/v1/namespaces/${NS}/configmaps`;
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NS);
  const names = Array.from({ length: COUNT }, (_, i) => `cm-${String(i).padStart(5, "0")}`);
  for (let start = 0; start < names.length; start += 50) {
    await Promise.all(
      names.slice(start, start + 50).map(async (name) => {
        const body = JSON.stringify({
          apiVersion: "v1",
          kind: "ConfigMap",
          metadata: { name },
          data: { payload: "x".repeat(1000), "dotted.key": 'é"\n' },
        });
        const response = await server.request("POST", COLLECTION, { body, headers: { "Content-Type": "application/json" } });
        expect(response.status).toBe(201);
      }),
    );
  }
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

test("a streamed JSON list is complete and well-formed, and the same list in pages holds the same items", async () => {
  const response = await server.request("GET", COLLECTION, { headers: { Accept: "application/json" } });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/json");
  const list = JSON.parse(await response.text());
  expect(list.kind).toBe("ConfigMapList");
  expect(list.items.length).toBe(COUNT + 1); // and the root CA ConfigMap
  expect(list.items[1].data).toEqual({ payload: "x".repeat(1000), "dotted.key": 'é"\n' });
  const firstPage = JSON.parse(await (await server.request("GET", `${COLLECTION}?limit=10`)).text());
  expect(list.items.slice(0, 10)).toEqual(firstPage.items);
});

test("kubectl get reads the streamed Table list of every object", async () => {
  const listed = await server.kubectl(["get", "configmaps", "-n", NS, "--no-headers"]);
  expect(listed.stderr).toBe("");
  expect(listed.stdout.trim().split("\n")).toHaveLength(COUNT + 1);
});

test("while 20 large lists are served, /healthz, /readyz and a small GET are answered before any list completes", async () => {
  const finished: string[] = [];
  const lists = Array.from({ length: 20 }, async (_, i) => {
    const response = await server.request("GET", COLLECTION, {
      headers: { Accept: i % 2 ? "application/json" : "application/json;as=Table;v=v1;g=meta.k8s.io" },
    });
    const list: Json = JSON.parse(await response.text());
    expect((list.items ?? list.rows).length).toBe(COUNT + 1);
    finished.push("list");
  });
  await Bun.sleep(20);
  const bystanders = ["/healthz", "/readyz", `/api/v1/namespaces/${NS}`].map(async (path) => {
    const response = await server.request("GET", path);
    await response.text();
    expect(response.status).toBe(200);
    finished.push(path);
  });
  await Promise.all([...lists, ...bystanders]);
  expect(finished.indexOf("list")).toBeGreaterThanOrEqual(3);
});
