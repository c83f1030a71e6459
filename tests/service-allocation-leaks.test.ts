/**
 * A Service's cluster IP and node ports are taken in the stored range allocations (kube's RangeAllocation bitmaps)
 * by a write of their own before the Service is written: a process stopped between the two (SIGTERM or kill -9 in
 * its first start) leaves values taken that no Service holds. A server on a data directory no other process writes
 * frees them in its first repair pass (kube's Repair.runOnce, without the grace passes that guard writes in flight),
 * so its own `kubernetes` Service can take 10.0.0.1 again and users their requested IPs and node ports. With
 * --data-dir-shared or on etcd another process's create may be in flight, so the leak waits out kube's grace passes; the server
 * serves meanwhile and retries its Service (RunKubernetesService). The data directory is made as such a stop leaves
 * it: the Services' rows removed from SQLite (their keys from etcd), their allocations kept.
 */
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { openSqliteDatabase } from "../core/runtime/sqlite.ts";
import { startServer, type TestServer } from "./harness.ts";
import { getJson, sendJson } from "./_api.ts";
import { eventually } from "./_audit.ts";
import { etcdDelete, etcdKeys } from "./_etcd.ts";
import { startTestEtcd } from "../core/storage/etcd/testing.ts";

const SERVICES = "/api/v1/namespaces/default/services";
let server: TestServer | undefined;
afterAll(() => server?.stop());

function service(name: string, spec: Record<string, unknown> = {}) {
  return { apiVersion: "v1", kind: "Service", metadata: { name }, spec: { ports: [{ port: 80 }], ...spec } };
}

/** The server writes its kubernetes Service after it starts answering: a stop before then would leave nothing to lose. */
async function stopOnceKubernetesServiceIsWritten(running: TestServer): Promise<void> {
  const written = async () => (await sendJson(running, "GET", `${SERVICES}/kubernetes`)).status === 200 || undefined;
  await eventually(written, "the kubernetes Service");
  await running.terminate();
}

/** Removes every revision of the Services `names` in default, as if their creates never committed. */
function forgetServices(dataDir: string, names: string[]): void {
  const db = openSqliteDatabase(join(dataDir, "kubun.db"));
  try {
    db.transaction(() => {
      for (const name of names) {
        const key = `/core/services/default/${name}`;
        db.prepare("DELETE FROM kv WHERE key = ?1").run(key);
        db.prepare("DELETE FROM history WHERE key = ?1").run(key);
      }
    });
  } finally {
    db.close();
  }
}

test.skipIf(process.env.KUBUN_TEST_STORAGE === "etcd")(
  "a data directory left with allocations no Service holds starts again: kubernetes gets 10.0.0.1, the IP and node port are free",
  async () => {
    server = await startServer([]);
    const dataDir = server.dataDir;
    const requested = { clusterIP: "10.0.0.9", type: "NodePort", ports: [{ port: 80, nodePort: 31001 }] };
    expect((await sendJson(server, "POST", SERVICES, service("lost", requested))).status).toBe(201);
    await stopOnceKubernetesServiceIsWritten(server);
    forgetServices(dataDir, ["kubernetes", "lost"]);

    server = await startServer([], { dataDir });
    const kubernetes = await getJson(server, `${SERVICES}/kubernetes`);
    expect(kubernetes.spec).toMatchObject({ clusterIP: "10.0.0.1", ports: [{ name: "https", port: 443 }] });
    const again = await sendJson(server, "POST", SERVICES, service("again", requested));
    expect(again.status).toBe(201);
    expect(again.body.spec).toMatchObject({ clusterIP: "10.0.0.9", ports: [{ nodePort: 31001 }] });
  },
);

/** The leak is kept (another process's create may be in flight): the server serves without its Service meanwhile. */
async function expectServingWithLeakedKubernetesIP(restarted: TestServer): Promise<void> {
  expect((await sendJson(restarted, "GET", `${SERVICES}/kubernetes`)).status).toBe(404);
  const steal = await sendJson(restarted, "POST", SERVICES, service("steal", { clusterIP: "10.0.0.1" }));
  expect(steal.status).toBe(422);
  expect((await sendJson(restarted, "POST", SERVICES, service("other"))).status).toBe(201);
}

test.skipIf(process.env.KUBUN_TEST_STORAGE === "etcd")(
  "--data-dir-shared: a leaked 10.0.0.1 is kept through the grace passes and the server serves meanwhile",
  async () => {
    await server?.stop();
    server = await startServer(["--data-dir-shared"]);
    const dataDir = server.dataDir;
    await stopOnceKubernetesServiceIsWritten(server);
    forgetServices(dataDir, ["kubernetes"]);

    server = await startServer(["--data-dir-shared"], { dataDir });
    await expectServingWithLeakedKubernetesIP(server);
  },
);

test("etcd: a leaked 10.0.0.1 is kept through the grace passes and the server serves meanwhile", async () => {
  const etcd = await startTestEtcd();
  const flags = ["--etcd-servers", etcd.endpoint, "--etcd-prefix", "/registry"];
  try {
    await server?.stop();
    server = await startServer(flags);
    await stopOnceKubernetesServiceIsWritten(server);
    const key = "/registry/services/specs/default/kubernetes";
    expect(await etcdKeys(etcd.endpoint, key)).toEqual([key]);
    await etcdDelete(etcd.endpoint, key);

    server = await startServer(flags, { dataDir: server.dataDir });
    await expectServingWithLeakedKubernetesIP(server);
  } finally {
    await server?.stop();
    server = undefined;
    await etcd.stop();
  }
});
