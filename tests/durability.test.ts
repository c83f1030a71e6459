/** Every acknowledged write survives kill -9 in the middle of a write load (default --storage-sync FULL). */
import { afterAll, expect, test } from "bun:test";
import { rm } from "node:fs/promises";
import { configMap, createNamespace, getJson, type Json, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

const NS = "durable";
const CLIENTS = 16;
const started: TestServer[] = [];

afterAll(async () => {
  for (const server of started) await server.kill9();
  if (started[0]) await rm(started[0].dataDir, { recursive: true, force: true });
});

test("objects acknowledged before kill -9 are all present after a restart on the same data directory", async () => {
  const first = await startServer();
  started.push(first);
  await createNamespace(first, NS);

  const acknowledged = new Map<string, string>();
  let next = 0;
  let killed = false;
  const client = async () => {
    while (!killed) {
      const name = `obj-${next++}`;
      try {
        const answer = await sendJson(
          first,
          "POST",
          `/api/v1/namespaces/${NS}/configmaps`,
          configMap(NS, name, { data: { payload: name.repeat(20) } }),
        );
        if (answer.status === 201) acknowledged.set(name, answer.body.metadata.uid);
      } catch {
        // The connection died with the server: this write was never acknowledged.
      }
    }
  };
  const load = Array.from({ length: CLIENTS }, client);
  const deadline = Date.now() + 20_000;
  while (acknowledged.size < 150 && Date.now() < deadline) await Bun.sleep(5);
  expect(acknowledged.size).toBeGreaterThanOrEqual(150);
  await first.kill9();
  killed = true;
  await Promise.all(load);

  const second = await startServer([], { dataDir: first.dataDir });
  started.push(second);
  const list = await getJson(second, `/api/v1/namespaces/${NS}/configmaps`);
  const present = new Map<string, string>(list.items.map((item: Json) => [item.metadata.name, item.metadata.uid]));
  const lost = [...acknowledged].filter(([name, uid]) => present.get(name) !== uid).map(([name]) => name);
  expect(lost).toEqual([]);

  // And the restarted server works normally: reads, writes, and resourceVersions keep growing.
  const after = await sendJson(second, "POST", `/api/v1/namespaces/${NS}/configmaps`, configMap(NS, "after-restart"));
  expect(after.status).toBe(201);
  expect(Number(after.body.metadata.resourceVersion)).toBeGreaterThan(Number(list.metadata.resourceVersion));
  expect((await getJson(second, `/api/v1/namespaces/${NS}/configmaps/after-restart`)).metadata.uid).toBe(after.body.metadata.uid);
});
