/**
 * `kubun migrate`: a copy of a serving, writing store (held exclusively by its server, so read from a lock-free copy of
 * its files) into an empty one at one revision of the source, keeping
 * every object's uid, creation timestamp, generation and managedFields; a round trip gives the same objects back.
 */
import { afterAll, expect, test } from "bun:test";
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type TestServer } from "./harness.ts";
import { startConfigMapWriters } from "./_writers.ts";
import { kubunCommand } from "./_kubun-process.ts";
import { kubectlOk } from "./_kubectl.ts";
import { getJson } from "./_api.ts";
import { startTestEtcd } from "../core/storage/etcd/testing.ts";
import { etcdValue } from "./_etcd.ts";
import { Buffer } from "node:buffer";
import { openSqliteDatabase } from "../core/runtime/sqlite.ts";

const dir = await mkdtemp(join(tmpdir(), "kubun-migrate-"));
const servers: TestServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
  await rm(dir, { recursive: true, force: true });
});

const WRITERS = 8;
const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: { name: web, labels: { app: web } }
spec:
  replicas: 2
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec: { containers: [{ name: web, image: nginx:1.25 }] }
`;

/** What a migration must keep of an object: everything but its resourceVersion. */
function identity(object: { metadata: Record<string, unknown> }): unknown {
  const { resourceVersion: _, ...metadata } = object.metadata;
  return { ...object, metadata };
}

async function objectsOf(server: TestServer, path: string): Promise<Map<string, unknown>> {
  const list = await (await server.request("GET", path)).json();
  return new Map(list.items.map((item: { metadata: { name: string } }) => [item.metadata.name, identity(item)]));
}

const LEASE = `apiVersion: coordination.k8s.io/v1
kind: Lease
metadata: { name: lock }
spec: { holderIdentity: node-a_1f2e, leaseDurationSeconds: 15, renewTime: "2026-11-26T10:00:00.000000Z" }
`;

/** SQLite's storage class of a key's current value in the database at `path`. */
function storedType(path: string, key: string): string {
  const db = openSqliteDatabase(path);
  try {
    return String(
      db.prepare("SELECT typeof(h.value) AS type FROM kv k JOIN history h ON h.rev = k.mod_rev WHERE k.key = ?").get(key)?.type,
    );
  } finally {
    db.close();
  }
}

function migrate(from: string, to: string) {
  return kubunCommand(["migrate", "--from", from, "--to", to]);
}

test("a migration under 8 writers copies exactly the writes acknowledged at its revision, objects unchanged but for resourceVersion; a private copy an interrupted migrate left is removed", async () => {
  const source = await startServer();
  servers.push(source);
  await kubectlOk(source, ["apply", "--server-side", "-f", "-"], DEPLOYMENT);
  await kubectlOk(source, ["set", "image", "deployment/web", "web=nginx:1.26"]);
  await kubectlOk(source, ["create", "secret", "generic", "token", "--from-literal=key=value"]);
  const writers = startConfigMapWriters(source, WRITERS);
  const acknowledged = writers.acknowledged;
  // What a migrate killed during its copy leaves in the source directory (core/storage/sqlite/live-copy.ts withLiveCopy).
  await mkdir(join(source.dataDir, ".kubun-copy-Stale1"), { mode: 0o700 });
  await writeFile(join(source.dataDir, ".kubun-copy-Stale1", "kubun.db"), "a full-size copy");
  await Bun.sleep(300);
  const copy = join(dir, "copy");
  const migrated = await migrate(`sqlite:${source.dataDir}`, `sqlite:${copy}`);
  await Bun.sleep(200);
  await writers.stop();
  expect(migrated).toMatchObject({ code: 0 });
  expect((await readdir(source.dataDir)).filter((name) => name.startsWith(".kubun-copy-"))).toEqual([]);
  const [, keys, revision] = /^Migrated (\d+) keys at revision (\d+) from /.exec(migrated.stdout)!.map(Number);
  expect(keys).toBeGreaterThan(0);
  const before = acknowledged.filter((write) => write.revision <= revision!);
  const after = acknowledged.filter((write) => write.revision > revision!);
  expect(before.length).toBeGreaterThan(0);
  expect(after.length).toBeGreaterThan(0);

  const sourceDeployments = await objectsOf(source, "/apis/apps/v1/namespaces/default/deployments");
  const sourceSecrets = await objectsOf(source, "/api/v1/namespaces/default/secrets");
  await source.terminate();
  const target = await startServer([], { dataDir: copy });
  servers.push(target);
  const names = new Set((await objectsOf(target, "/api/v1/namespaces/default/configmaps")).keys());
  expect(before.filter((write) => !names.has(write.name))).toEqual([]);
  expect(after.filter((write) => names.has(write.name))).toEqual([]);
  type Meta = { uid: string; creationTimestamp: string; generation: number; managedFields: { manager: string }[] };
  const web = (await objectsOf(target, "/apis/apps/v1/namespaces/default/deployments")).get("web") as { metadata: Meta };
  const sourceWeb = sourceDeployments.get("web") as { metadata: Meta };
  // The new server's Deployment controller may write status; identity, generation and the users' field owners are the source's.
  const usersFields = (meta: Meta) => meta.managedFields.filter((entry) => entry.manager.startsWith("kubectl"));
  expect(web.metadata.uid).toBe(sourceWeb.metadata.uid);
  expect(web.metadata.creationTimestamp).toBe(sourceWeb.metadata.creationTimestamp);
  expect(web.metadata.generation).toBe(2);
  expect(usersFields(web.metadata)).toEqual(usersFields(sourceWeb.metadata));
  expect(usersFields(web.metadata).length).toBe(2);
  expect((await objectsOf(target, "/api/v1/namespaces/default/secrets")).get("token")).toEqual(sourceSecrets.get("token"));
});

test("a migration into a store that holds objects, or into a serving server's data directory, is refused and writes nothing; a missing source is refused", async () => {
  // The first test's source, stopped: its store holds objects.
  const stopped = servers[0]!.dataDir;
  const refused = await migrate(`sqlite:${stopped}`, `sqlite:${stopped}`);
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toMatch(/the target store already holds \d+ keys; migrate into an empty store/);
  // A serving server holds its database alone (core/server/data-dir.ts openDataDirStore).
  const serving = servers.at(-1)!;
  const inUse = await migrate(`sqlite:${stopped}`, `sqlite:${serving.dataDir}`);
  expect(inUse.code).not.toBe(0);
  expect(inUse.stderr).toContain(`data directory ${serving.dataDir} is in use by another kubun process`);
  expect((await serving.request("GET", "/api/v1/namespaces/default")).status).toBe(200);
  const missing = await migrate(`sqlite:${join(dir, "nothing-here")}`, `sqlite:${join(dir, "unused")}`);
  expect(missing.code).not.toBe(0);
  expect(missing.stderr).toContain(`no kubun database in ${join(dir, "nothing-here")}`);
  expect((await kubunCommand(["migrate", "--from", "postgres:x", "--to", "sqlite:y"])).stderr).toContain(
    'invalid argument "postgres:x" for "--from" flag',
  );
});

test("sqlite → etcd → sqlite gives every object back equal but for resourceVersion, stored in etcd as kube-apiserver stores it", async () => {
  const etcd = await startTestEtcd();
  try {
    const source = await startServer();
    servers.push(source);
    await kubectlOk(source, ["apply", "--server-side", "-f", "-"], DEPLOYMENT);
    await kubectlOk(source, ["create", "secret", "generic", "token", "--from-literal=key=value"]);
    await kubectlOk(source, ["create", "configmap", "settings", "--from-literal=mode=fast"]);
    await kubectlOk(source, ["create", "service", "clusterip", "web", "--tcp=80:8080"]);
    await kubectlOk(source, ["create", "-f", "-"], LEASE);
    // Objects no controller of the restored server rewrites (the Deployment's status moves; its spec is checked apart).
    const collections = [
      "/api/v1/namespaces/default/configmaps",
      "/api/v1/namespaces/default/secrets",
      "/api/v1/namespaces/default/services",
      "/api/v1/namespaces",
      "/apis/rbac.authorization.k8s.io/v1/clusterroles",
      "/apis/coordination.k8s.io/v1/namespaces/default/leases",
    ];
    const deployment = await getJson(source, "/apis/apps/v1/namespaces/default/deployments/web");
    const before = await Promise.all(collections.map((path) => objectsOf(source, path)));
    await source.terminate();

    expect(await migrate(`sqlite:${source.dataDir}`, `etcd:${etcd.endpoint}`)).toMatchObject({ code: 0 });
    // kube's layout and encoding (the etcd3 store's keys, the protobuf envelope, the allocators' RangeAllocation).
    expect((await etcdValue(etcd.endpoint, "/registry/configmaps/default/settings"))?.subarray(0, 4)).toEqual(Buffer.from("k8s\0"));
    expect(await etcdValue(etcd.endpoint, "/registry/services/specs/default/web")).toBeDefined();
    expect(await etcdValue(etcd.endpoint, "/registry/deployments/default/web")).toBeDefined();
    expect((await etcdValue(etcd.endpoint, "/registry/ranges/serviceips"))?.includes("RangeAllocation")).toBe(true);

    const back = join(dir, "back");
    expect(await migrate(`etcd:${etcd.endpoint}`, `sqlite:${back}`)).toMatchObject({ code: 0 });
    // Written into SQLite as the server writes Leases: deflated (core/storage/sqlite/stored-value.ts).
    expect(storedType(join(back, "kubun.db"), "/coordination.k8s.io/leases/default/lock")).toBe("blob");
    // The restored server keeps the source's PKI, so the cluster CA that kube-root-ca.crt publishes stays the same.
    for (const file of (await readdir(source.dataDir)).filter((name) => /\.(crt|key)$/.test(name))) {
      await copyFile(join(source.dataDir, file), join(back, file));
    }
    const restored = await startServer([], { dataDir: back });
    servers.push(restored);
    const after = await Promise.all(collections.map((path) => objectsOf(restored, path)));
    // The `kubernetes` Service names the serving port, which each server sets to its own.
    for (const objects of [...before, ...after]) objects.delete("kubernetes");
    for (const [i, path] of collections.entries()) expect({ path, objects: after[i] }).toEqual({ path, objects: before[i] });
    const restoredDeployment = await getJson(restored, "/apis/apps/v1/namespaces/default/deployments/web");
    for (const field of ["uid", "creationTimestamp", "generation", "labels"]) {
      expect(restoredDeployment.metadata[field]).toEqual(deployment.metadata[field]);
    }
    expect(restoredDeployment.spec).toEqual(deployment.spec);
  } finally {
    await etcd.stop();
  }
});
