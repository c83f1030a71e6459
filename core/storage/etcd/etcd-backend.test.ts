/** What the etcd backend adds to the storage contract: several servers on one etcd, kube's compactor, encryption, a lost etcd. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Buffer } from "node:buffer";
import { StatusError } from "../../api/errors.ts";
import { rejection } from "../contract-suite.ts";
import { type EncryptionConfigSource, PrefixTransformers } from "../encryption/mod.ts";
import { IDENTITY_LAYOUT, JSON_TEXT_CODEC } from "../layout.ts";
import type { KeyValue, StorageEvent } from "../storage.ts";
import { EtcdClient } from "./_client.ts";
import { startEtcdCompactor } from "./compactor.ts";
import { type EtcdStorage, openEtcdStorage } from "./mod.ts";
import { compactTestEtcd, freePort, startEtcdLink, startTestEtcd, type TestEtcd } from "./testing.ts";

let etcd: TestEtcd;
let prefixes = 0;

beforeAll(async () => {
  etcd = await startTestEtcd();
});
afterAll(async () => {
  await etcd?.stop();
});

const open = (prefix: string, extra: { encryption?: EncryptionConfigSource } = {}) =>
  openEtcdStorage({
    servers: [etcd.endpoint],
    prefix,
    compactionIntervalMs: 0,
    layout: IDENTITY_LAYOUT,
    codec: JSON_TEXT_CODEC,
    callTimeoutMs: 2_000,
    ...extra,
  }) as Promise<EtcdStorage>;

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Retries `call` until it succeeds, for at most 10 s. */
async function reachable(call: () => unknown): Promise<void> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 50))) {
    try {
      await call();
      return;
    } catch {
      // not yet
    }
  }
  throw new Error("etcd did not become reachable again within 10 s");
}

test("two stores on one etcd prefix each deliver every write of both to their subscribers exactly once, in revision order", async () => {
  const prefix = `/shared-${++prefixes}`;
  const [a, b] = [await open(prefix), await open(prefix)];
  const seen: [StorageEvent[], StorageEvent[]] = [[], []];
  a.subscribe((event) => seen[0].push(event));
  b.subscribe((event) => seen[1].push(event));
  const writes: KeyValue[] = [];
  await Promise.all(
    [a, b].map(async (store, writer) => {
      for (let i = 0; i < 20; i++) writes.push(await store.write({ op: "create", key: `/w/${writer}-${i}`, value: `${i}` }));
    }),
  );
  const expected = writes.map((kv) => [kv.modRevision, kv.key]).sort(([x], [y]) => Number(x) - Number(y));
  await until(() => seen[0].length >= 40 && seen[1].length >= 40);
  for (const events of seen) expect(events.map((event) => [event.revision, event.kv.key])).toEqual(expected);
  await a.close();
  await b.close();
});

test("kube's compactor: of two servers on one etcd only one compacts each interval, and the other learns the revision from compact_rev_key", async () => {
  const client = new EtcdClient({ endpoints: [etcd.endpoint] });
  const prefix = `/compact-${++prefixes}`;
  const [a, b] = [await open(prefix), await open(prefix)];
  const compactions: [number[], number[]] = [[], []];
  const target = (store: EtcdStorage, log: number[]) => ({
    compact: async (revision: number) => {
      log.push(revision);
      await store.compact(revision);
    },
    noteCompacted: (revision: number) => store.noteCompacted(revision),
  });
  const compactors = [
    startEtcdCompactor(client, target(a, compactions[0]), 3_600_000),
    startEtcdCompactor(client, target(b, compactions[1]), 3_600_000),
  ];
  const round = async () => {
    for (const compactor of compactors) await compactor.tick();
    await a.write({ op: "create", key: `/x/${crypto.randomUUID()}`, value: "v" });
  };
  for (let i = 0; i < 4; i++) await round();
  // Rounds: a takes the clock, b adopts it; then a compacts each round while b's compare fails and it learns.
  expect(compactions[1]).toEqual([]);
  expect(compactions[0]).toHaveLength(3);
  expect(b.compactedRevision()).toBe(compactions[0].at(-1)!);
  expect(a.compactedRevision()).toBe(compactions[0].at(-1)!);
  for (const compactor of compactors) compactor.stop();
  client.close();
  await a.close();
  await b.close();
});

test("encrypted resources reach etcd sealed with the full etcd key as authenticated data, read back opened, and a value that does not open fails with kube's 500", async () => {
  const seenKeys: string[] = [];
  const xor = (data: Uint8Array) => data.map((byte) => byte ^ 0x5a);
  const plan = {
    transformers: new Map([[
      "secrets",
      new PrefixTransformers([{
        prefix: "k8s:enc:test:v1:k:",
        transformer: {
          toStorage: (value: Uint8Array, key: string) => (seenKeys.push(key), xor(value)),
          fromStorage: (data: Uint8Array) => {
            if (data[0] === 0) throw new Error("bad key");
            return xor(data);
          },
        },
      }]),
    ]]),
    kmsProbes: [],
    onlyKmsV2: false,
    close: () => {},
  };
  const prefix = `/sealed-${++prefixes}`;
  const store = await open(prefix, { encryption: { current: () => plan, healthChecks: () => [], stop: () => {} } });
  await store.write({ op: "create", key: "/core/secrets/default/s", value: '{"data":"x"}' });
  await store.write({ op: "create", key: "/core/configmaps/default/c", value: '{"data":"y"}' });
  const client = new EtcdClient({ endpoints: [etcd.endpoint] });
  const raw = async (key: string) => Buffer.from((await client.range({ key: Buffer.from(prefix + key) })).kvs[0]!.value);
  expect((await raw("/core/secrets/default/s")).toString("latin1").startsWith("k8s:enc:test:v1:k:")).toBe(true);
  expect((await raw("/core/configmaps/default/c")).toString()).toBe('{"data":"y"}');
  expect(seenKeys).toEqual([`${prefix}/core/secrets/default/s`]);
  expect((await store.get("/core/secrets/default/s"))?.value).toBe('{"data":"x"}');

  await client.txn({
    success: [{ requestPut: { key: Buffer.from(`${prefix}/core/secrets/default/s`), value: Buffer.from("k8s:enc:test:v1:k:\0") } }],
  });
  const failure = await rejection(store.get("/core/secrets/default/s"));
  expect(failure).toBeInstanceOf(StatusError);
  expect((failure as StatusError).code).toBe(500);
  expect((failure as StatusError).message).toBe(
    `Internal error occurred: unable to transform key "${prefix}/core/secrets/default/s": bad key`,
  );
  client.close();
  await store.close();
});

test("with etcd gone calls fail with kube's 500 for a failed storage call, and once it is back the store watch resumes where it stopped", async () => {
  const prefix = `/lost-${++prefixes}`;
  const [a, b] = [await open(prefix), await open(prefix)];
  const seen: string[] = [];
  a.subscribe((event) => seen.push(event.kv.key));
  await b.write({ op: "create", key: "/k/before", value: "v" });
  await until(() => seen.length === 1);

  await etcd.kill();
  const failure = await rejection(a.get("/k/before"));
  expect((failure as StatusError).code).toBe(500);
  expect((failure as StatusError).message).toStartWith("rpc error: code = Unavailable desc = ");
  await etcd.start();
  // etcd answers its health check before gRPC's reconnect backoff has passed; a read that succeeds says it is back.
  await reachable(() => b.get("/k/before"));

  await b.write({ op: "create", key: "/k/after", value: "v" });
  await until(() => seen.length === 2);
  expect(seen).toEqual(["/k/before", "/k/after"]);
  expect((await a.get("/k/after"))?.value).toBe("v");
  await a.close();
  await b.close();
});

test("revisions etcd compacted before the store watch received them are told to the subscribers in order, and replays from before them fail Compacted (kube's reflector gets ErrCompacted)", async () => {
  const prefix = `/lost-${++prefixes}`;
  const link = await startEtcdLink(etcd.endpoint);
  const cutOff = await openEtcdStorage({
    servers: [link.endpoint],
    prefix,
    compactionIntervalMs: 0,
    layout: IDENTITY_LAYOUT,
    codec: JSON_TEXT_CODEC,
    callTimeoutMs: 2_000,
  });
  const writer = await open(prefix);
  try {
    const seen: string[] = [];
    cutOff.subscribe((event) => seen.push(`${event.kv.key}@${event.revision}`), (lost) => seen.push(`lost ${lost.from}..${lost.to}`));
    const first = await cutOff.write({ op: "create", key: "/k/first", value: "1" });
    link.cut();
    const missed = await writer.write({ op: "create", key: "/k/missed", value: "2" });
    const compactedTo = (await writer.write({ op: "create", key: "/k/compacted", value: "3" })).modRevision;
    await compactTestEtcd(etcd.endpoint, compactedTo);
    link.restore();
    await until(() => seen.some((entry) => entry.startsWith("lost")));
    const later = await cutOff.write({ op: "create", key: "/k/later", value: "4" });
    await until(() => seen.includes(`/k/later@${later.modRevision}`));
    // etcd keeps the compaction revision itself: the reopened watch starts there.
    expect(seen).toEqual([
      `/k/first@${first.modRevision}`,
      `lost ${first.modRevision + 1}..${compactedTo - 1}`,
      `/k/compacted@${compactedTo}`,
      `/k/later@${later.modRevision}`,
    ]);
    expect(missed.modRevision).toBeLessThan(compactedTo);
    expect(await cutOff.eventsSince("/k/", first.modRevision).catch((error) => error.code)).toBe("Compacted");
  } finally {
    await cutOff.close();
    await writer.close();
    await link.close();
  }
});

test("TLS: with --etcd-cafile, --etcd-certfile and --etcd-keyfile the store reaches an etcd that requires client certificates, and without a client certificate it does not", async () => {
  const secure = await startTestEtcd({ tls: true });
  try {
    const files = secure.client!;
    const config = {
      servers: [secure.endpoint],
      prefix: "/tls",
      compactionIntervalMs: 0,
      layout: IDENTITY_LAYOUT,
      codec: JSON_TEXT_CODEC,
      callTimeoutMs: 2_000,
    };
    const store = await openEtcdStorage({ ...config, caFile: files.caFile, certFile: files.certFile, keyFile: files.keyFile });
    await store.write({ op: "create", key: "/a/1", value: "one" });
    expect((await store.get("/a/1"))?.value).toBe("one");
    await store.close();
    await expect(openEtcdStorage({ ...config, caFile: files.caFile })).rejects.toThrow(/^etcd https:\/\/127\.0\.0\.1:\d+: /);
  } finally {
    await secure.stop();
  }
});

test("with several --etcd-servers a member that does not answer is passed over for calls and for the store watch", async () => {
  const dead = `http://127.0.0.1:${await freePort()}`;
  const prefix = `/failover-${++prefixes}`;
  const store = await openEtcdStorage({
    servers: [dead, etcd.endpoint],
    prefix,
    compactionIntervalMs: 0,
    layout: IDENTITY_LAYOUT,
    codec: JSON_TEXT_CODEC,
    callTimeoutMs: 2_000,
  });
  const seen: string[] = [];
  store.subscribe((event) => seen.push(event.kv.key));
  // The write resolves only once the store watch (which also began on the dead member) has delivered it.
  await store.write({ op: "create", key: "/a/1", value: "one" });
  expect(seen).toEqual(["/a/1"]);
  expect((await store.get("/a/1"))?.value).toBe("one");
  await store.close();
});

test("an etcd that hangs fails a call at its deadline with kube's 504 (request did not complete within requested timeout)", async () => {
  const store = await openEtcdStorage({
    servers: [etcd.endpoint],
    prefix: `/hung-${++prefixes}`,
    compactionIntervalMs: 0,
    layout: IDENTITY_LAYOUT,
    codec: JSON_TEXT_CODEC,
    callTimeoutMs: 300,
  });
  await etcd.pause();
  try {
    const failure = await rejection(Promise.resolve(store.get("/a/1")));
    expect(failure).toBeInstanceOf(StatusError);
    expect((failure as StatusError).code).toBe(504);
    expect((failure as StatusError).message).toBe("Timeout: request did not complete within requested timeout - context deadline exceeded");
  } finally {
    await etcd.resume();
  }
  expect(await store.get("/a/1")).toBeNull();
  await store.close();
});
