import { expect, test } from "bun:test";
import { Buffer } from "node:buffer";
import { setTimeout as sleep } from "node:timers/promises";
import { openSqliteStorage } from "../sqlite/mod.ts";
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
