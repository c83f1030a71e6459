/**
 * SQLite storage format 3 stores Leases deflated with a preset dictionary (core/storage/sqlite/stored-value.ts), so
 * that an idle tick's renewals share a history page. Clients must not see the difference: after a restart (nothing
 * left in memory, every read from the file) kubectl, a watch from an old resourceVersion, a list at an exact past
 * resourceVersion and the JavaScript client get the Leases exactly as the server answered the writes, while the raw
 * database holds them as BLOBs that carry none of their text, and everything else as text.
 */
import { afterAll, expect, test } from "bun:test";
import { CoordinationV1Api, KubeConfig } from "@kubernetes/client-node";
import { join } from "node:path";
import { parse } from "yaml";
import { openSqliteDatabase } from "../core/runtime/sqlite.ts";
import { getJson, type Json, openWatch, sendJson } from "./_api.ts";
import { kubectlOk } from "./_kubectl.ts";
import { startServer, type TestServer } from "./harness.ts";

const LEASES = "/apis/coordination.k8s.io/v1/namespaces/default/leases";
const HOLDER = "holder-7f3a_9b2c";

let server: TestServer = await startServer(["--simulated-nodes=3"]);
afterAll(() => server.stop());

function lease(holderIdentity: string, renewTime: string): Json {
  return {
    apiVersion: "coordination.k8s.io/v1",
    kind: "Lease",
    metadata: { name: "leader", namespace: "default", labels: { app: "deflate-check" } },
    spec: {
      holderIdentity,
      leaseDurationSeconds: 15,
      acquireTime: "2026-11-26T10:00:00.000000Z",
      renewTime,
      leaseTransitions: 3,
    },
  };
}

async function waitForNodeLeases(): Promise<void> {
  for (;;) {
    const list = await getJson(server, "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases");
    if (list.items.length === 3) return;
    await Bun.sleep(200);
  }
}

/** Each history row of a key under `prefix`: its key, SQLite's storage class of its value, and the value. */
function storedRows(prefix: string): { key: string; type: string; value: unknown }[] {
  const db = openSqliteDatabase(join(server.dataDir, "kubun.db"));
  try {
    return db.prepare("SELECT key, typeof(value) AS type, value FROM history WHERE key >= ?1 AND key < ?1 || x'ff' AND value IS NOT NULL")
      .all(prefix).map((row) => ({ key: String(row.key), type: String(row.type), value: row.value }));
  } finally {
    db.close();
  }
}

test(
  "Leases read back exactly as written after a restart, by kubectl, a watch from an old revision, an exact-revision list and the JS client, while kubun.db holds them deflated",
  async () => {
    await waitForNodeLeases();
    const created = await sendJson(server, "POST", LEASES, lease(HOLDER, "2026-11-26T10:00:00.000000Z"));
    expect(created.status).toBe(201);
    const updated = await sendJson(server, "PUT", `${LEASES}/leader`, {
      ...lease(HOLDER, "2026-11-26T10:00:10.000000Z"),
      metadata: created.body.metadata,
    });
    expect(updated.status).toBe(200);
    const configMap = await sendJson(server, "POST", "/api/v1/namespaces/default/configmaps", {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "plain" },
      data: { holder: HOLDER },
    });
    expect(configMap.status).toBe(201);

    // Restarted, the server has only the file to answer from.
    await server.terminate();
    server = await startServer(["--simulated-nodes=3"], { dataDir: server.dataDir });

    expect(await getJson(server, `${LEASES}/leader`)).toEqual(updated.body);
    expect(JSON.parse(await kubectlOk(server, ["get", "lease", "leader", "-n", "default", "--show-managed-fields", "-o", "json"]))).toEqual(
      updated.body,
    );
    expect(parse(await kubectlOk(server, ["get", "lease", "leader", "-n", "default", "--show-managed-fields", "-o", "yaml"]))).toEqual(
      updated.body,
    );

    const atCreate = await getJson(
      server,
      `${LEASES}?resourceVersion=${created.body.metadata.resourceVersion}&resourceVersionMatch=Exact`,
    );
    // A typed list's item carries no apiVersion/kind (runtime.Scheme setTargetKind types the list only).
    const { apiVersion: _apiVersion, kind: _kind, ...createdItem } = created.body;
    expect(atCreate.items).toEqual([createdItem]);

    const watch = await openWatch(server, `${LEASES}?watch=true&resourceVersion=${created.body.metadata.resourceVersion}`);
    try {
      const [event] = await watch.until(() => true);
      expect(event).toEqual({ type: "MODIFIED", object: updated.body });
    } finally {
      await watch.close();
    }

    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(server.kubeconfig);
    const coordination = kubeConfig.makeApiClient(CoordinationV1Api);
    const read = await coordination.readNamespacedLease({ name: "leader", namespace: "default" });
    expect([read.metadata?.resourceVersion, read.metadata?.labels, read.spec?.holderIdentity, read.spec?.leaseTransitions]).toEqual([
      updated.body.metadata.resourceVersion,
      { app: "deflate-check" },
      HOLDER,
      3,
    ]);
    const nodeLeases = await coordination.listNamespacedLease({ namespace: "kube-node-lease" });
    expect(nodeLeases.items.map((item) => [item.metadata?.name, item.spec?.holderIdentity, item.spec?.leaseDurationSeconds])).toEqual([
      ["sim-0", "sim-0", 40],
      ["sim-1", "sim-1", 40],
      ["sim-2", "sim-2", 40],
    ]);

    // The server holds kubun.db alone while it runs (locking_mode=EXCLUSIVE): the file is read once it has stopped.
    await server.terminate();
    const leaseRows = storedRows("/coordination.k8s.io/leases/");
    expect(leaseRows.filter((row) => row.key === "/coordination.k8s.io/leases/default/leader").length).toBe(2);
    expect(leaseRows.some((row) => row.key.startsWith("/coordination.k8s.io/leases/kube-node-lease/"))).toBe(true);
    for (const row of leaseRows) {
      expect({ key: row.key, type: row.type, tag: (row.value as Uint8Array)[0] }).toEqual({ key: row.key, type: "blob", tag: 1 });
      const bytes = new TextDecoder("latin1").decode(row.value as Uint8Array);
      for (const plain of [HOLDER, "holderIdentity", "kube-node-lease"]) expect(bytes).not.toContain(plain);
    }
    const configMapRows = storedRows("/core/configmaps/default/plain");
    expect(configMapRows.map((row) => row.type)).toEqual(["text"]);
    expect(String(configMapRows[0]!.value)).toContain(HOLDER);
  },
  60_000,
);
