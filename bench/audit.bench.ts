/**
 * Cost of auditing every request at Metadata level (--audit-log-path, blocking mode, json) against the same
 * compiled server without audit, measured in the same run; this script is the load generator, the server runs in
 * its own process. Rounds alternate between the two servers and the best round of each counts, so a noisy
 * neighbour on the machine does not decide the ratio. Goal: under 10% slower. Not a test. The log shares the disk
 * with SQLite's synced commits unless AUDIT_BENCH_LOG_DIR puts it elsewhere (e.g. /dev/shm), which separates the
 * audit's own cost from the disk contention a busy log adds. AUDIT_BENCH_BEFORE=<binary> adds, in the same
 * rounds, an audited server run from that binary (e.g. a build of an earlier commit), to show a change's effect.
 * Run: node_modules/.bin/bun bench/audit.bench.ts (after bash compile.sh).
 */
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type TestServer } from "../tests/harness.ts";
import { expectStatus, rate } from "./_load.ts";

const CONCURRENCY = 16;
const GETS = 4_000;
const CREATES = 1_000;
const ROUNDS = 3;
const JSON_HEADERS = { "Content-Type": "application/json", Accept: "application/json" };

async function getsPerSecond(server: TestServer): Promise<number> {
  return await rate(GETS, CONCURRENCY, async () => {
    const response = await server.request("GET", "/api/v1/namespaces/default/configmaps/bench", { headers: JSON_HEADERS });
    expectStatus(response, 200, "get");
    await response.text();
  });
}

async function createsPerSecond(server: TestServer, round: number): Promise<number> {
  return await rate(CREATES, CONCURRENCY, async (i) => {
    const body = JSON.stringify({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: `r${round}-${i}` },
      data: { key: "value".repeat(20) },
    });
    const response = await server.request("POST", "/api/v1/namespaces/default/configmaps", { body, headers: JSON_HEADERS });
    expectStatus(response, 201, "create");
    await response.text();
  });
}

const dir = await mkdtemp(join(tmpdir(), "kubun-audit-bench-"));
const policy = join(dir, "policy.yaml");
const log = join(process.env.AUDIT_BENCH_LOG_DIR ?? dir, "audit.log");
await writeFile(policy, "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n");
const auditFlags = (path: string) => [`--audit-policy-file=${policy}`, `--audit-log-path=${path}`];
const plain = await startServer();
const audited = await startServer(auditFlags(log));
const before = process.env.AUDIT_BENCH_BEFORE
  ? await startServer(auditFlags(`${log}.before`), { binary: process.env.AUDIT_BENCH_BEFORE })
  : undefined;
try {
  for (const server of [plain, audited, before].filter((s) => s !== undefined)) {
    const seed = await server.request("POST", "/api/v1/namespaces/default/configmaps", {
      body: JSON.stringify({ metadata: { name: "bench" } }),
      headers: JSON_HEADERS,
    });
    expectStatus(seed, 201, "seed");
  }
  const best = { plainGets: 0, auditedGets: 0, beforeGets: 0, plainCreates: 0, auditedCreates: 0, beforeCreates: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    best.plainGets = Math.max(best.plainGets, await getsPerSecond(plain));
    best.auditedGets = Math.max(best.auditedGets, await getsPerSecond(audited));
    if (before) best.beforeGets = Math.max(best.beforeGets, await getsPerSecond(before));
    best.plainCreates = Math.max(best.plainCreates, await createsPerSecond(plain, round));
    best.auditedCreates = Math.max(best.auditedCreates, await createsPerSecond(audited, round));
    if (before) best.beforeCreates = Math.max(best.beforeCreates, await createsPerSecond(before, round));
  }
  const slower = (base: number, withAudit: number) => `${(((base - withAudit) / base) * 100).toFixed(1)}% slower`;
  console.log(
    `GET, ${CONCURRENCY} clients: ${Math.round(best.plainGets)}/s without audit, ${Math.round(best.auditedGets)}/s with Metadata audit (${
      slower(best.plainGets, best.auditedGets)
    })`,
  );
  console.log(
    `create, ${CONCURRENCY} clients: ${Math.round(best.plainCreates)}/s without audit, ${
      Math.round(best.auditedCreates)
    }/s with Metadata audit (${slower(best.plainCreates, best.auditedCreates)})`,
  );
  if (before) {
    console.log(
      `AUDIT_BENCH_BEFORE binary with Metadata audit: GET ${Math.round(best.beforeGets)}/s (${
        slower(best.plainGets, best.beforeGets)
      }), create ${Math.round(best.beforeCreates)}/s (${slower(best.plainCreates, best.beforeCreates)})`,
    );
  }
  console.log(`audit log written: ${((await stat(log)).size / 1024 / 1024).toFixed(1)} MiB`);
} finally {
  await plain.stop();
  await audited.stop();
  await before?.stop();
  await rm(dir, { recursive: true, force: true });
}
