/**
 * A kubun of storage format 2 reads `history.value` as text, so a data directory it may share stays format 2: a
 * server started with --data-dir-shared on a format-2 kubun.db writes every Lease as text and leaves user_version
 * at 2, and only a server holding the directory alone (the default) makes it format 3 and deflates Leases
 * (core/storage/sqlite/schema.ts ensureFormat). Clients see the same Lease either way.
 */
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { openSqliteDatabase } from "../core/runtime/sqlite.ts";
import { rewriteAsFormatTwo } from "../core/storage/sqlite/testing.ts";
import { getJson, type Json, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

const LEASES = "/apis/coordination.k8s.io/v1/namespaces/default/leases";
const LEADER_KEY = "/coordination.k8s.io/leases/default/leader";

let server: TestServer = await startServer();
afterAll(() => server.stop());

function lease(renewTime: string, metadata: Json = { name: "leader", namespace: "default" }): Json {
  return {
    apiVersion: "coordination.k8s.io/v1",
    kind: "Lease",
    metadata,
    spec: { holderIdentity: "holder-1", leaseDurationSeconds: 15, renewTime },
  };
}

/** kubun.db's user_version and SQLite's storage class of each stored value of the leader Lease, oldest first. */
function storedLeader(): { format: number; types: string[] } {
  const db = openSqliteDatabase(join(server.dataDir, "kubun.db"));
  try {
    return {
      format: Number(db.prepare("PRAGMA user_version").get()!.user_version),
      types: db.prepare("SELECT typeof(value) AS type FROM history WHERE key = ?1 ORDER BY rev").all(LEADER_KEY).map((row) =>
        String(row.type)
      ),
    };
  } finally {
    db.close();
  }
}

async function renew(renewTime: string): Promise<Json> {
  const current = await getJson(server, `${LEASES}/leader`);
  const updated = await sendJson(server, "PUT", `${LEASES}/leader`, lease(renewTime, current.metadata));
  expect(updated.status).toBe(200);
  return updated.body;
}

test(
  "--data-dir-shared on a format-2 kubun.db keeps it format 2 with Leases as text; a server holding it alone makes it format 3 (ensureFormat)",
  async () => {
    expect((await sendJson(server, "POST", LEASES, lease("2026-11-26T10:00:00.000000Z"))).status).toBe(201);
    await server.terminate();
    rewriteAsFormatTwo(join(server.dataDir, "kubun.db"));
    expect(storedLeader()).toEqual({ format: 2, types: ["text"] });

    server = await startServer(["--data-dir-shared"], { dataDir: server.dataDir });
    const renewedShared = await renew("2026-11-26T10:00:10.000000Z");
    // Read beside the running server, as a format-2 kubun sharing the directory would.
    expect(storedLeader()).toEqual({ format: 2, types: ["text", "text"] });
    await server.terminate();

    server = await startServer([], { dataDir: server.dataDir });
    expect(await getJson(server, `${LEASES}/leader`)).toEqual(renewedShared);
    const renewedAlone = await renew("2026-11-26T10:00:20.000000Z");
    await server.terminate();
    expect(storedLeader()).toEqual({ format: 3, types: ["text", "text", "blob"] });
    server = await startServer([], { dataDir: server.dataDir });
    expect(await getJson(server, `${LEASES}/leader`)).toEqual(renewedAlone);
  },
  60_000,
);
