import { expect, test } from "bun:test";
import { Buffer } from "node:buffer";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { openSqliteStorage } from "../sqlite/mod.ts";
import { HeldSync } from "../sqlite/testing.ts";
import type { StorageEvent } from "../storage.ts";
import { encryptingStorage } from "./encrypting-storage.ts";
import { PrefixTransformers, type StorageTransformer } from "./prefix-transformers.ts";
import type { EncryptionConfigSource } from "./reload.ts";

/** A cipher that "encrypts" by reversing the bytes, and decrypts values holding "slow" only after a while, as a KMS envelope does on a DEK cache miss. */
const reversing: StorageTransformer = {
  toStorage: (value) => value.slice().reverse(),
  fromStorage(data) {
    const value = data.slice().reverse();
    return Buffer.from(value).includes("slow") ? sleep(30).then(() => value) : value;
  },
};

function source(): EncryptionConfigSource {
  const plan = {
    transformers: new Map([["configmaps", new PrefixTransformers([{ prefix: "k8s:enc:test:v1:k:", transformer: reversing }])]]),
    kmsProbes: [],
    onlyKmsV2: false,
    close: () => {},
  };
  return { current: () => plan, healthChecks: () => [], stop: () => {} };
}

test("watch events reach subscribers in commit order when one of them waits for its plugin, and at once when none waits", async () => {
  const storage = encryptingStorage(openSqliteStorage(":memory:"), source());
  const seen: StorageEvent[] = [];
  storage.subscribe((event) => seen.push(event));
  const key = (name: string) => `/core/configmaps/default/${name}`;
  await Promise.all([
    storage.write({ op: "create", key: key("a"), value: '{"v":"slow"}' }),
    storage.write({ op: "create", key: key("b"), value: '{"v":"fast"}' }),
    storage.write({ op: "create", key: key("c"), value: '{"v":"fast"}' }),
  ]);
  // The slow one holds the two after it back.
  expect(seen).toEqual([]);
  while (seen.length < 3) await sleep(5);
  expect(seen.map((event) => [event.kv.key, event.kv.value])).toEqual([
    [key("a"), '{"v":"slow"}'],
    [key("b"), '{"v":"fast"}'],
    [key("c"), '{"v":"fast"}'],
  ]);
  // Nothing pending: the next event is handed on within the write, before it resolves.
  await sleep(5);
  await storage.write({ op: "create", key: key("d"), value: '{"v":"fast"}' });
  expect(seen.at(-1)?.kv.key).toBe(key("d"));
  expect((await storage.get(key("a")))?.value).toBe('{"v":"slow"}');
  expect((await storage.range("/core/configmaps/")).items.map((kv) => kv.value)).toEqual([
    '{"v":"slow"}',
    '{"v":"fast"}',
    '{"v":"fast"}',
    '{"v":"fast"}',
  ]);
  await storage.close();
});

test("a failed WAL sync is told to subscribers behind the events still being decrypted before it", async () => {
  const directory = mkdtempSync(join(tmpdir(), "kubun-encrypting-"));
  let log!: HeldSync;
  const storage = encryptingStorage(openSqliteStorage(join(directory, "kubun.db"), { logSync: () => (log = new HeldSync()) }), source());
  const told: string[] = [];
  storage.subscribe((event) => told.push(event.kv.key), undefined, (failure) => told.push(`failure ${failure.error}`));
  const key = (name: string) => `/core/configmaps/default/${name}`;
  // A lone write is synced on the thread and released; its event waits for the slow decryption.
  await storage.write({ op: "create", key: key("slow"), value: '{"v":"slow"}' });
  const held = Promise.all(["b", "c"].map((name) => storage.write({ op: "create", key: key(name), value: '{"v":"fast"}' })));
  while (log.running === 0) await sleep(1);
  log.fail(new Error("EIO: the disk is gone"));
  await expect(held).rejects.toThrow("EIO");
  while (told.length < 2) await sleep(5);
  expect(told).toEqual([key("slow"), "failure Error: EIO: the disk is gone"]);
  await storage.close();
  rmSync(directory, { recursive: true, force: true });
});

test("encrypted bytes are stored without NUL characters (node:sqlite ends TEXT at a NUL) and read back whole", async () => {
  const withNul: StorageTransformer = {
    toStorage: (value) => new Uint8Array([0, 0xff, ...value, 0]),
    fromStorage: (data) => data.subarray(2, data.length - 1),
  };
  const plan = {
    transformers: new Map([["secrets", new PrefixTransformers([{ prefix: "k8s:enc:test:v1:k:", transformer: withNul }])]]),
    kmsProbes: [],
    onlyKmsV2: false,
    close: () => {},
  };
  const inner = openSqliteStorage(":memory:");
  const storage = encryptingStorage(inner, { current: () => plan, healthChecks: () => [], stop: () => {} });
  const key = "/core/secrets/default/s";
  await storage.write({ op: "create", key, value: '{"data":"x"}' });
  const raw = (await inner.get(key))!.value;
  expect(raw).toStartWith("k8s:enc:test:v1:k:");
  expect(raw).not.toContain("\u0000");
  expect((await storage.get(key))?.value).toBe('{"data":"x"}');
  // A value stored with a raw NUL (by a kubun that wrote bytes as they were) still reads.
  await inner.write({ op: "update", key, value: "k8s:enc:test:v1:k:\u0000\u00ff{}\u0000", expectedRevision: 0 });
  expect((await storage.get(key))?.value).toBe("{}");
  await storage.close();
});
