/**
 * An older kubun kept events.k8s.io Events apart, under `/events.k8s.io/events/<ns>/<name>` in their own version.
 * Since both groups serve one core Event collection (kube's AddCohabitatingResources), a start moves such rows into
 * it (core/registry/events-v1-move.ts), so both groups list them and --event-ttl expires them. The old row is made
 * the way that kubun stored it: in SQLite an Event's row renamed to the old key, holding the events.k8s.io/v1 object;
 * in etcd that object as JSON at the kubun-only `events.k8s.io/events/` prefix it used below --etcd-prefix.
 */
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { openSqliteDatabase } from "../core/runtime/sqlite.ts";
import { startServer, type TestServer } from "./harness.ts";
import { createNamespace, getJson, sendJson } from "./_api.ts";
import { etcdKeys, etcdPut } from "./_etcd.ts";
import { startTestEtcd } from "../core/storage/etcd/testing.ts";
import { eventsV1Event } from "./_events.ts";

const NS = "legacy";
const MODERN = `/apis/events.k8s.io/v1/namespaces/${NS}/events`;
const CORE = `/api/v1/namespaces/${NS}/events`;

let server: TestServer = await startServer();
afterAll(() => server?.stop());

const modernEvent = (name: string, note: string) => eventsV1Event(name, NS, note);

/** Renames the stored row of `name` to the old key, holding `value` as that kubun stored it (no resourceVersion). */
function moveRowToOldKey(name: string, value: Record<string, unknown>): void {
  const db = openSqliteDatabase(join(server.dataDir, "kubun.db"));
  try {
    const metadata = { ...(value.metadata as Record<string, unknown>) };
    delete metadata.resourceVersion;
    const coreKey = `/core/events/${NS}/${name}`;
    const oldKey = `/events.k8s.io/events/${NS}/${name}`;
    db.transaction(() => {
      db.prepare("UPDATE history SET key = ?1, value = ?2 WHERE key = ?3").run(oldKey, JSON.stringify({ ...value, metadata }), coreKey);
      db.prepare("UPDATE kv SET key = ?1 WHERE key = ?2").run(oldKey, coreKey);
    });
  } finally {
    db.close();
  }
}

test.skipIf(process.env.KUBUN_TEST_STORAGE === "etcd")(
  "events.k8s.io Events under an older kubun's keys are moved into the core collection at start and listed, read and deleted through both groups",
  async () => {
    await createNamespace(server, NS);
    const created = await sendJson(server, "POST", MODERN, modernEvent("kept-apart", "from an older kubun"));
    expect(created.status).toBe(201);
    await server.terminate();
    // The server holds kubun.db alone while it runs (locking_mode=EXCLUSIVE): the file is changed once it has stopped.
    moveRowToOldKey("kept-apart", created.body);
    server = await startServer([], { dataDir: server.dataDir });

    const names = (list: { items: { metadata: { name: string } }[] }) => list.items.map((item) => item.metadata.name);
    expect(names(await getJson(server, MODERN))).toEqual(["kept-apart"]);
    expect(names(await getJson(server, CORE))).toEqual(["kept-apart"]);
    const core = await getJson(server, `${CORE}/kept-apart`);
    expect(core).toMatchObject({
      apiVersion: "v1",
      metadata: { uid: created.body.metadata.uid, creationTimestamp: created.body.metadata.creationTimestamp },
      message: "from an older kubun",
      reportingComponent: "example.com/ctl",
    });
    const modern = await getJson(server, `${MODERN}/kept-apart`);
    expect(modern).toMatchObject({ note: "from an older kubun", regarding: { name: "web" } });
    // A new revision: the move is a write of its own.
    expect(Number(modern.metadata.resourceVersion)).toBeGreaterThan(Number(created.body.metadata.resourceVersion));

    expect((await sendJson(server, "DELETE", `${MODERN}/kept-apart`)).status).toBe(200);
    expect((await getJson(server, CORE)).items).toEqual([]);
  },
);

test("etcd: an events.k8s.io Event at an older kubun's events.k8s.io/events/ key is moved to kube's events/ key at start", async () => {
  const etcd = await startTestEtcd();
  const flags = ["--etcd-servers", etcd.endpoint, "--etcd-prefix", "/registry"];
  let etcdServer: TestServer | undefined;
  try {
    etcdServer = await startServer(flags);
    await createNamespace(etcdServer, NS);
    const old = modernEvent("kept-apart", "from an older kubun on etcd");
    const stored = {
      ...old,
      metadata: { ...old.metadata, uid: "0b6f1d0e-0000-4000-8000-000000000001", creationTimestamp: "2026-01-01T00:00:00Z" },
    };
    await etcdPut(etcd.endpoint, `/registry/events.k8s.io/events/${NS}/kept-apart`, JSON.stringify(stored));
    await etcdServer.stop();
    etcdServer = await startServer(flags);

    const modern = await getJson(etcdServer, `${MODERN}/kept-apart`);
    expect(modern).toMatchObject({ metadata: { uid: stored.metadata.uid }, note: "from an older kubun on etcd" });
    expect((await getJson(etcdServer, CORE)).items.map((item: { message: string }) => item.message)).toEqual([
      "from an older kubun on etcd",
    ]);
    expect(await etcdKeys(etcd.endpoint, "/registry/events.k8s.io/")).toEqual([]);
    expect(await etcdKeys(etcd.endpoint, `/registry/events/${NS}/`)).toEqual([`/registry/events/${NS}/kept-apart`]);
  } finally {
    await etcdServer?.stop();
    await etcd.stop();
  }
});
