import { expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { type MaybePromise, PrefixTransformers } from "./prefix-transformers.ts";
import { aescbc, identity, secretbox } from "./providers.ts";

const KEY = "/core/secrets/default/s1";
const bytes = (value: string) => new Uint8Array(Buffer.from(value, "utf8"));
/** The local ciphers answer synchronously (watch events are opened on the spot): anything else fails the test. */
function now<T>(value: MaybePromise<T>): T {
  if (value instanceof Promise) throw new Error("expected a synchronous result");
  return value;
}
const text = (value: MaybePromise<Uint8Array>) => Buffer.from(now(value)).toString("latin1");

const key1 = { prefix: "k8s:enc:aescbc:v1:key1:", transformer: aescbc(randomBytes(32)) };
const key2 = { prefix: "k8s:enc:secretbox:v1:key2:", transformer: secretbox(randomBytes(32)) };
const plain = { prefix: "", transformer: identity };

test("PrefixTransformers writes with the first provider under its prefix and reads with the one whose prefix matches", () => {
  const oldConfig = new PrefixTransformers([key1, plain]);
  const rotated = new PrefixTransformers([key2, key1, plain]);
  const stored = now(oldConfig.toStorage(bytes("value"), KEY));
  expect(text(stored)).toStartWith("k8s:enc:aescbc:v1:key1:");
  expect(now(rotated.fromStorage(stored, KEY))).toEqual({ value: bytes("value"), stale: true });
  expect(text(rotated.toStorage(bytes("value"), KEY))).toStartWith("k8s:enc:secretbox:v1:key2:");
  expect(now(rotated.fromStorage(bytes('{"plain":true}'), KEY))).toEqual({ value: bytes('{"plain":true}'), stale: true });
});

test("identity listed first still lets encrypted values be read by the providers after it (decrypting away)", () => {
  const decrypting = new PrefixTransformers([plain, key1]);
  const stored = now(new PrefixTransformers([key1]).toStorage(bytes("value"), KEY));
  expect(now(decrypting.fromStorage(stored, KEY))).toEqual({ value: bytes("value"), stale: true });
  expect(text(decrypting.toStorage(bytes("value"), KEY))).toBe("value");
});

test("a value no provider can read fails with kube's errors", () => {
  const only1 = new PrefixTransformers([key1]);
  expect(() => only1.fromStorage(bytes('{"plain":true}'), KEY)).toThrow("no matching prefix found");
  expect(() => only1.fromStorage(now(new PrefixTransformers([key2]).toStorage(bytes("v"), KEY)), KEY)).toThrow("no matching prefix found");
  expect(() => new PrefixTransformers([plain]).fromStorage(now(only1.toStorage(bytes("v"), KEY)), KEY)).toThrow(
    "identity transformer tried to read encrypted data",
  );
});
