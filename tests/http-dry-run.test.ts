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
  const body = await expectNoChange(
    () => sendJson(server, "POST", `${COLLECTION}?dryRun=All`, configMap(NS, "ghost", { data: { a: "b" } })),
    201,
  ) as { metadata: { name: string; uid: string }; data: unknown };
  expect(body.metadata.name).toBe("ghost");
  expect(body.metadata.uid).toBeString();
  expect(body.data).toEqual({ a: "b" });
  expect((await server.request("GET", `${COLLECTION}/ghost`)).status).toBe(404);
});

test("dryRun=All update, merge patch and delete change nothing", async () => {
  const current = await getJson(server, `${COLLECTION}/existing`);
  const updated = await expectNoChange(
    () => sendJson(server, "PUT", `${COLLECTION}/existing?dryRun=All`, { ...current, data: { k: "changed" } }),
    200,
  ) as { data: unknown };
  expect(updated.data).toEqual({ k: "changed" });
  const patched = await expectNoChange(
    () => sendJson(server, "PATCH", `${COLLECTION}/existing?dryRun=All`, { data: { p: "q" } }, "application/merge-patch+json"),
    200,
  ) as { data: unknown };
  expect(patched.data).toEqual({ k: "v", p: "q" });
  await expectNoChange(() => sendJson(server, "DELETE", `${COLLECTION}/existing?dryRun=All`), 200);
  expect((await getJson(server, `${COLLECTION}/existing`)).data).toEqual({ k: "v" });
});

test("dryRun in DeleteOptions and on deletecollection deletes nothing", async () => {
  await expectNoChange(
    () => sendJson(server, "DELETE", `${COLLECTION}/existing`, { kind: "DeleteOptions", apiVersion: "v1", dryRun: ["All"] }),
    200,
  );
  await expectNoChange(() => sendJson(server, "DELETE", `${COLLECTION}?dryRun=All`), 200);
});

test("a dry run still validates: an invalid object is refused as the real write would be", async () => {
  const refused = await expectNoChange(() => sendJson(server, "POST", `${COLLECTION}?dryRun=All`, configMap(NS, "Not_Valid")), 422);
  expect(refused).toMatchObject({ kind: "Status", reason: "Invalid" });
  await expectNoChange(() => sendJson(server, "POST", `${COLLECTION}?dryRun=All`, configMap(NS, "existing")), 409);
});

test("an unknown dryRun value is refused and a bare ?dryRun writes for real", async () => {
  const refused = await expectNoChange(() => sendJson(server, "POST", `${COLLECTION}?dryRun=Sometimes`, configMap(NS, "odd")), 422);
  expect(refused).toMatchObject({
    reason: "Invalid",
    message: 'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Sometimes"}: supported values: "All"',
  });
  const bare = await sendJson(server, "POST", `${COLLECTION}?dryRun`, configMap(NS, "bare"));
  expect(bare.status).toBe(201);
  expect((await getJson(server, `${COLLECTION}/bare`)).metadata.name).toBe("bare");
});

test("kubectl --dry-run=server reports the object and creates nothing", async () => {
  const result = await server.kubectl([
    "-n",
    NS,
    "create",
    "configmap",
    "from-kubectl",
    "--from-literal=x=y",
    "--dry-run=server",
    "-o",
    "json",
  ]);
  expect(result.code).toBe(0);
  expect(JSON.parse(result.stdout).metadata.uid).toBeString();
  expect((await server.kubectl(["-n", NS, "get", "configmap", "from-kubectl"])).code).not.toBe(0);
  const deleteDry = await server.kubectl(["-n", NS, "delete", "configmap", "existing", "--dry-run=server"]);
  expect(deleteDry.stdout).toContain('configmap "existing" deleted (server dry run)');
  expect((await server.kubectl(["-n", NS, "get", "configmap", "existing"])).code).toBe(0);
});

test("dry-run writes answer resourceVersion as kube's dry-run storage does: the stored one for updates, patches and applies, none for a create", async () => {
  const stored = (await getJson(server, `${COLLECTION}/existing`)).metadata.resourceVersion;
  const { metadata: { resourceVersion: _, ...metadata }, ...rest } = await getJson(server, `${COLLECTION}/existing`);
  const writes: [string, () => Promise<{ status: number; body: { metadata: { resourceVersion?: string } } }>][] = [
    ["unconditional update", () => sendJson(server, "PUT", `${COLLECTION}/existing?dryRun=All`, { ...rest, metadata, data: { k: "u" } })],
    [
      "merge patch",
      () => sendJson(server, "PATCH", `${COLLECTION}/existing?dryRun=All`, { data: { k: "m" } }, "application/merge-patch+json"),
    ],
    [
      "strategic merge patch",
      () => sendJson(server, "PATCH", `${COLLECTION}/existing?dryRun=All`, { data: { k: "s" } }, "application/strategic-merge-patch+json"),
    ],
    [
      "json patch",
      () =>
        sendJson(
          server,
          "PATCH",
          `${COLLECTION}/existing?dryRun=All`,
          [{ op: "add", path: "/data/j", value: "j" }],
          "application/json-patch+json",
        ),
    ],
    [
      "apply",
      () =>
        sendJson(server, "PATCH", `${COLLECTION}/existing?dryRun=All&fieldManager=dry`, {
          apiVersion: "v1",
          kind: "ConfigMap",
          metadata: { name: "existing" },
          data: { a: "a" },
        }, "application/apply-patch+yaml"),
    ],
  ];
  for (const [write, send] of writes) {
    const answer = await send();
    expect({ write, status: answer.status, resourceVersion: answer.body.metadata.resourceVersion }).toEqual({
      write,
      status: 200,
      resourceVersion: stored,
    });
  }
  const created = await sendJson(server, "POST", `${COLLECTION}?dryRun=All`, configMap(NS, "never"));
  expect({ status: created.status, resourceVersion: created.body.metadata.resourceVersion }).toEqual({
    status: 201,
    resourceVersion: undefined,
  });
});

test("kubectl diff of an applied manifest shows no change, client- or server-side (the dry-run patch answers the stored resourceVersion)", async () => {
  const manifest = JSON.stringify(configMap(NS, "diffed", { data: { k: "v" } }));
  expect((await server.kubectl(["apply", "-f", "-"], { stdin: manifest })).code).toBe(0);
  const diff = await server.kubectl(["diff", "-f", "-"], { stdin: manifest });
  expect({ code: diff.code, stdout: diff.stdout, stderr: diff.stderr }).toEqual({ code: 0, stdout: "", stderr: "" });
  const serverSideManifest = JSON.stringify(configMap(NS, "diffed-server-side", { data: { k: "v" } }));
  expect((await server.kubectl(["apply", "--server-side", "-f", "-"], { stdin: serverSideManifest })).code).toBe(0);
  const serverSide = await server.kubectl(["diff", "--server-side", "-f", "-"], { stdin: serverSideManifest });
  expect({ code: serverSide.code, stdout: serverSide.stdout, stderr: serverSide.stderr }).toEqual({ code: 0, stdout: "", stderr: "" });
});
