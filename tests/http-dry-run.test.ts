import { afterAll, beforeAll, expect, test } from "bun:test";
import { collectionState, configMap, createConfigMap, createNamespace, getJson, openWatch, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

const NS = "dry";
const COLLECTION = `/api/v1/namespaces/${NS}/configmaps`;
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NS);
  await createConfigMap(server, NS, "existing", { data: { k: "v" } });
});
afterAll(() => server.stop());

/** Runs `write` with a watch open; nothing may be stored and no event may be sent. */
async function expectNoChange(write: () => Promise<{ status: number; body: unknown }>, status: number): Promise<unknown> {
  const before = await collectionState(server, COLLECTION);
  const revision = (await getJson(server, COLLECTION)).metadata.resourceVersion;
  const watch = await openWatch(server, `${COLLECTION}?watch=1&resourceVersion=${revision}`);
  const answer = await write();
  expect(answer.status).toBe(status);
  expect(await watch.drain(300)).toEqual([]);
  await watch.close();
  expect(await collectionState(server, COLLECTION)).toEqual(before);
  return answer.body;
}

test("dryRun=All create answers like a real create, stores nothing and sends no event", async () => {
  const body = await expectNoChange(() => sendJson(server, "POST", `${COLLECTION}?dryRun=All`, configMap(NS, "ghost", { data: { a: "b" } })), 201) as { metadata: { name: string; uid: string }; data: unknown };
  expect(body.metadata.name).toBe("ghost");
  expect(body.metadata.uid).toBeString();
  expect(body.data).toEqual({ a: "b" });
  expect((await server.request("GET", `${COLLECTION}/ghost`)).status).toBe(404);
});

test("dryRun=All update, merge patch and delete change nothing", async () => {
  const current = await getJson(server, `${COLLECTION}/existing`);
  const updated = await expectNoChange(() => sendJson(server, "PUT", `${COLLECTION}/existing?dryRun=All`, { ...current, data: { k: "changed" } }), 200) as { data: unknown };
  expect(updated.data).toEqual({ k: "changed" });
  const patched = await expectNoChange(() => sendJson(server, "PATCH", `${COLLECTION}/existing?dryRun=All`, { data: { p: "q" } }, "application/merge-patch+json"), 200) as { data: unknown };
  expect(patched.data).toEqual({ k: "v", p: "q" });
  await expectNoChange(() => sendJson(server, "DELETE", `${COLLECTION}/existing?dryRun=All`), 200);
  expect((await getJson(server, `${COLLECTION}/existing`)).data).toEqual({ k: "v" });
});

test("dryRun in DeleteOptions and on deletecollection deletes nothing", async () => {
  await expectNoChange(() => sendJson(server, "DELETE", `${COLLECTION}/existing`, { kind: "DeleteOptions", apiVersion: "v1", dryRun: ["All"] }), 200);
  await expectNoChange(() => sendJson(server, "DELETE", `${COLLECTION}?dryRun=All`), 200);
});

test("a dry run still validates: an invalid object is refused as the real write would be", async () => {
  const refused = await expectNoChange(() => sendJson(server, "POST", `${COLLECTION}?dryRun=All`, configMap(NS, "Not_Valid")), 422);
  expect(refused).toMatchObject({ kind: "Status", reason: "Invalid" });
  await expectNoChange(() => sendJson(server, "POST", `${COLLECTION}?dryRun=All`, configMap(NS, "existing")), 409);
});

test("an unknown dryRun value is refused and a bare ?dryRun writes for real", async () => {
  const refused = await expectNoChange(() => sendJson(server, "POST", `${COLLECTION}?dryRun=Sometimes`, configMap(NS, "odd")), 422);
  expect(refused).toMatchObject({ reason: "Invalid", message: 'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: "Sometimes": supported values: "All"' });
  const bare = await sendJson(server, "POST", `${COLLECTION}?dryRun`, configMap(NS, "bare"));
  expect(bare.status).toBe(201);
  expect((await getJson(server, `${COLLECTION}/bare`)).metadata.name).toBe("bare");
});

test("kubectl --dry-run=server reports the object and creates nothing", async () => {
  const result = await server.kubectl(["-n", NS, "create", "configmap", "from-kubectl", "--from-literal=x=y", "--dry-run=server", "-o", "json"]);
  expect(result.code).toBe(0);
  expect(JSON.parse(result.stdout).metadata.uid).toBeString();
  expect((await server.kubectl(["-n", NS, "get", "configmap", "from-kubectl"])).code).not.toBe(0);
  const deleteDry = await server.kubectl(["-n", NS, "delete", "configmap", "existing", "--dry-run=server"]);
  expect(deleteDry.stdout).toContain('configmap "existing" deleted (server dry run)');
  expect((await server.kubectl(["-n", NS, "get", "configmap", "existing"])).code).toBe(0);
});
