/**
 * Which DELETEs admission sees: kube's Store.Delete runs it (deleteValidation) only where the delete writes, so a
 * repeated DELETE of a pending graceful deletion (BeforeDelete's gracefulPending) or of a namespace still being
 * finalized (the namespace REST's Delete) is answered without it.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createNamespace, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

// Refuses any DELETE of a pod or namespace that is already being deleted.
const PLUGIN = `
const plugin = () => ({
  name: "no-second-delete",
  handles: (request) => request.operation === "DELETE" && ["pods", "namespaces"].includes(request.resource.resource),
  validate(request) {
    if (request.oldObject?.metadata.deletionTimestamp) throw new Error("already being deleted");
  },
});
export default plugin;
`;

const NS = "second-deletes";
let server: TestServer;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "kubun-delete-admission-"));
  await writeFile(join(dir, "no-second-delete.ts"), PLUGIN);
  server = await startServer([`--enable-admission-plugins=NamespaceLifecycle,${join(dir, "no-second-delete.ts")}`]);
  await createNamespace(server, NS);
});
afterAll(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

test("a repeated DELETE of a pod whose graceful deletion is pending skips admission; one that shortens it does not (Store.Delete)", async () => {
  const pod = {
    metadata: { name: "pending" },
    spec: { nodeName: "no-kubelet", terminationGracePeriodSeconds: 30, containers: [{ name: "c", image: "nginx" }] },
  };
  expect((await sendJson(server, "POST", `/api/v1/namespaces/${NS}/pods`, pod)).status).toBe(201);
  const path = `/api/v1/namespaces/${NS}/pods/pending`;
  expect((await sendJson(server, "DELETE", path)).status).toBe(200);
  const again = await sendJson(server, "DELETE", path);
  expect(again.status).toBe(200);
  expect(again.body.metadata.deletionGracePeriodSeconds).toBe(30);
  const shorter = await sendJson(server, "DELETE", `${path}?gracePeriodSeconds=5`);
  expect(shorter.status).toBe(403);
  expect(shorter.body.message).toContain("already being deleted");
});

test("a repeated DELETE of a namespace still being finalized skips admission (namespace REST Delete)", async () => {
  await createNamespace(server, "finalizing");
  const held = { metadata: { name: "held", finalizers: ["example.com/hold"] } };
  expect((await sendJson(server, "POST", "/api/v1/namespaces/finalizing/configmaps", held)).status).toBe(201);
  expect((await sendJson(server, "DELETE", "/api/v1/namespaces/finalizing")).status).toBe(200);
  const again = await sendJson(server, "DELETE", "/api/v1/namespaces/finalizing");
  expect(again.status).toBe(200);
  expect(again.body.status.phase).toBe("Terminating");
});
