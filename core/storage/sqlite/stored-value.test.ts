import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { LEASE_DICTIONARY_V1 } from "./lease-dictionary.ts";
import { CODEC_DEFLATE_LEASE_DICTIONARY_V1, decodeStoredValue, storedBlock, storedValueEncoder } from "./stored-value.ts";
import { LEASE_PREFIX, leaseValue } from "./testing.ts";

const encode = storedValueEncoder([LEASE_PREFIX]);
const NODE_LEASE_KEY = `${LEASE_PREFIX}kube-node-lease/sim-0`;
const IDENTITY_KEY = `${LEASE_PREFIX}kube-system/kube-apiserver-lphjr5z7h3imqn7sokpnsue3ha`;

function asBytes(stored: unknown): Uint8Array {
  expect(stored).toBeInstanceOf(Uint8Array);
  return stored as Uint8Array;
}

test("a Lease under a compressed prefix is stored as a BLOB: codec tag 1, then deflated bytes without the plain text", () => {
  const value = leaseValue("sim-0", 7);
  const stored = asBytes(encode(NODE_LEASE_KEY, value));
  expect(stored[0]).toBe(CODEC_DEFLATE_LEASE_DICTIONARY_V1);
  const raw = new TextDecoder("latin1").decode(stored);
  for (const plain of ["kube-node-lease", "holderIdentity", "sim-0", "renewTime"]) expect(raw).not.toContain(plain);
  expect(decodeStoredValue(NODE_LEASE_KEY, stored)).toBe(value);
});

test("the dictionary makes a node Lease under a fifth of its text and the identity Lease under a quarter", () => {
  const node = leaseValue("sim-0", 7);
  const identity = leaseValue("kube-apiserver-lphjr5z7h3imqn7sokpnsue3ha", 7, true);
  expect(asBytes(encode(NODE_LEASE_KEY, node)).length).toBeLessThan(node.length / 5);
  expect(asBytes(encode(IDENTITY_KEY, identity)).length).toBeLessThan(identity.length / 4);
  expect(decodeStoredValue(IDENTITY_KEY, encode(IDENTITY_KEY, identity))).toBe(identity);
});

test("values round-trip whatever their characters", () => {
  for (const value of ['{"a":"ünïcödé ✓ 日本"}', `{"big":"${"xyz".repeat(20_000)}"}`, "{}", '{"nul":"\\u0000"}']) {
    expect(decodeStoredValue(NODE_LEASE_KEY, encode(NODE_LEASE_KEY, value))).toBe(value);
  }
});

// A read inflates the dictionary's stored block and the body from one buffer kept between reads (decodeStoredValue).
test("bodies longer than the kept inflate buffer decode, and so do shorter ones read after them", () => {
  const random = (n: number) => createHash("sha256").update(String(n)).digest("hex");
  const big = `{"data":"${Array.from({ length: 400 }, (_, i) => random(i)).join("")}"}`;
  const small = leaseValue("sim-0", 7);
  const bigStored = asBytes(encode(NODE_LEASE_KEY, big));
  expect(bigStored.length).toBeGreaterThan(4 * 1024);
  for (const value of [small, big, small, big]) expect(decodeStoredValue(NODE_LEASE_KEY, encode(NODE_LEASE_KEY, value))).toBe(value);
});

// Deflate refers back at most 32 KiB (RFC 1951, 3.2.5): zlib's deflateSetDictionary keeps the last window of a
// longer dictionary and fflate takes dictionary.subarray(-32768), so such a dictionary could never be used whole.
test("storedBlock takes a dictionary of up to 32,768 bytes, the deflate window, and refuses a longer one", () => {
  const block = storedBlock(new Uint8Array(32_768).fill(7));
  expect([...block.subarray(0, 5)]).toEqual([0, 0x00, 0x80, 0xff, 0x7f]);
  expect(block.length).toBe(5 + 32_768);
  expect(() => storedBlock(new Uint8Array(32_769))).toThrow("a deflate dictionary holds at most 32768 bytes, not 32769");
});

test("other keys, encrypted values, non-JSON values and values that deflate no smaller stay the text as given", () => {
  const value = leaseValue("sim-0", 7);
  expect(encode("/core/configmaps/default/sim-0", value)).toBe(value);
  expect(storedValueEncoder([])(NODE_LEASE_KEY, value)).toBe(value);
  const encrypted = "k8s:enc:aescbc:v1:key1:" + "\u00e9\u0001".repeat(300);
  expect(encode(NODE_LEASE_KEY, encrypted)).toBe(encrypted);
  expect(encode(NODE_LEASE_KEY, "x".repeat(500))).toBe("x".repeat(500));
  expect(encode(NODE_LEASE_KEY, "{}")).toBe("{}");
  expect(decodeStoredValue(NODE_LEASE_KEY, value)).toBe(value);
});

test("a BLOB with a codec tag this kubun does not know is an error naming the key, never garbage", () => {
  const stored = asBytes(encode(NODE_LEASE_KEY, leaseValue("sim-0", 7))).slice();
  stored[0] = 2;
  expect(() => decodeStoredValue(NODE_LEASE_KEY, stored)).toThrow(
    `the stored value of ${NODE_LEASE_KEY} is encoded with codec 2, which this kubun does not know`,
  );
  expect(() => decodeStoredValue(NODE_LEASE_KEY, new Uint8Array())).toThrow("codec (none)");
});

// The format is plain raw deflate with a preset dictionary, so any zlib reads it: Python's here (zlib.decompressobj
// with zdict), not the code that wrote it.
test("codec 1 is raw deflate with the dictionary as zlib defines it: Python's zlib inflates it to the Lease", () => {
  const value = leaseValue("kube-apiserver-lphjr5z7h3imqn7sokpnsue3ha", 7, true);
  const body = asBytes(encode(IDENTITY_KEY, value)).subarray(1);
  const inflate = "import sys, zlib, base64; d, b = sys.stdin.read().split(); " +
    "sys.stdout.write(zlib.decompressobj(-15, zdict=base64.b64decode(d)).decompress(base64.b64decode(b)).decode())";
  const python = spawnSync("python3", ["-c", inflate], {
    input: `${Buffer.from(LEASE_DICTIONARY_V1).toString("base64")} ${Buffer.from(body).toString("base64")}`,
    encoding: "utf8",
  });
  expect(python.stderr).toBe("");
  expect(python.stdout).toBe(value);
});

// Values on disk refer to the dictionary's bytes: changing it would make them unreadable (a new one gets a new tag).
test("dictionary v1 is the one released", () => {
  expect(createHash("sha256").update(LEASE_DICTIONARY_V1).digest("hex")).toBe(
    "fd18daa9ab02c3c1550f608af7417fecfec5d976264720e441c5e812ec153a02",
  );
});
