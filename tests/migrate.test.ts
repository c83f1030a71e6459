/**
 * `kubun migrate`: a copy of a serving, writing store into an empty one at one revision of the source, keeping
 * every object's uid, creation timestamp, generation and managedFields; a round trip gives the same objects back.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type TestServer } from "./harness.ts";
import { startConfigMapWriters } from "./_writers.ts";
import { kubunCommand } from "./_kubun-process.ts";
import { kubectlOk } from "./_kubectl.ts";

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

function migrate(from: string, to: string) {
  return kubunCommand(["migrate", "--from", from, "--to", to]);
}

test("a migration under 8 writers copies exactly the writes acknowledged at its revision, objects unchanged but for resourceVersion", async () => {
  const source = await startServer();
  servers.push(source);
  await kubectlOk(source, ["apply", "--server-side", "-f", "-"], DEPLOYMENT);
  await kubectlOk(source, ["set", "image", "deployment/web", "web=nginx:1.26"]);
  await kubectlOk(source, ["create", "secret", "generic", "token", "--from-literal=key=value"]);
  const writers = startConfigMapWriters(source, WRITERS);
  const acknowledged = writers.acknowledged;
  await Bun.sleep(300);
  const copy = join(dir, "copy");
  const migrated = await migrate(`sqlite:${source.dataDir}`, `sqlite:${copy}`);
  await Bun.sleep(200);
  await writers.stop();
  expect(migrated).toMatchObject({ code: 0 });
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

test("a migration into a store that holds objects is refused and writes nothing; a missing source is refused", async () => {
  const server = servers.at(-1)!;
  const refused = await migrate(`sqlite:${server.dataDir}`, `sqlite:${server.dataDir}`);
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toMatch(/the target store already holds \d+ keys; migrate into an empty store/);
  const missing = await migrate(`sqlite:${join(dir, "nothing-here")}`, `sqlite:${join(dir, "unused")}`);
  expect(missing.code).not.toBe(0);
  expect(missing.stderr).toContain(`no kubun database in ${join(dir, "nothing-here")}`);
  expect((await kubunCommand(["migrate", "--from", "postgres:x", "--to", "sqlite:y"])).stderr).toContain(
    'invalid argument "postgres:x" for "--from" flag',
  );
});
