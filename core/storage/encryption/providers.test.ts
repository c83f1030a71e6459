import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { aescbc, aesgcm, identity, secretbox } from "./providers.ts";

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("utf8");
const bytes = (value: string) => new Uint8Array(Buffer.from(value, "utf8"));
const KEY = "/core/secrets/default/s1";

test("aescbc reads what an independent AES-CBC implementation (openssl) wrote in kube's layout: IV, then PKCS#7-padded ciphertext", () => {
  const secret = randomBytes(32);
  const iv = randomBytes(16);
  const plaintext = '{"kind":"Secret","data":{"password":"aGVsbG8="}}';
  const ciphertext = execFileSync("openssl", ["enc", "-aes-256-cbc", "-K", secret.toString("hex"), "-iv", iv.toString("hex")], {
    input: plaintext,
  });
  expect(text(aescbc(secret).fromStorage(new Uint8Array(Buffer.concat([iv, ciphertext])), KEY))).toBe(plaintext);
});

test("aescbc writes what openssl decrypts, with a fresh IV each time", () => {
  const secret = randomBytes(16);
  const sealed = aescbc(secret).toStorage(bytes("sixteen byte val"), KEY);
  expect(sealed.length).toBe(16 + 32);
  const iv = Buffer.from(sealed.subarray(0, 16));
  const opened = execFileSync("openssl", ["enc", "-d", "-aes-128-cbc", "-K", secret.toString("hex"), "-iv", iv.toString("hex")], {
    input: Buffer.from(sealed.subarray(16)),
  });
  expect(opened.toString()).toBe("sixteen byte val");
  expect(Buffer.from(aescbc(secret).toStorage(bytes("x"), KEY).subarray(0, 16)).equals(iv)).toBe(false);
});

test("aescbc refuses short, misaligned and badly padded data with kube's errors", () => {
  const secret = randomBytes(32);
  const cbc = aescbc(secret);
  expect(() => cbc.fromStorage(new Uint8Array(8), KEY)).toThrow("the stored data was shorter than the required size");
  expect(() => cbc.fromStorage(new Uint8Array(20), KEY)).toThrow("the stored data is not a multiple of the block size");
  // Blocks encrypted without padding whose last bytes are no PKCS#7 padding.
  const iv = randomBytes(16);
  const unpadded = (block: Buffer) =>
    new Uint8Array(
      Buffer.concat([
        iv,
        execFileSync("openssl", ["enc", "-aes-256-cbc", "-nopad", "-K", secret.toString("hex"), "-iv", iv.toString("hex")], {
          input: block,
        }),
      ]),
    );
  expect(() => cbc.fromStorage(unpadded(Buffer.alloc(16)), KEY)).toThrow("invalid PKCS7 data (empty or not padded)");
  expect(() => cbc.fromStorage(unpadded(Buffer.from("fifteen bytes..\u0003".slice(0, 14) + "\u0001\u0003")), KEY)).toThrow(
    "invalid padding on input",
  );
});

test("aesgcm binds the value to its storage key (kube's authenticated data) and detects tampering", () => {
  const gcm = aesgcm(randomBytes(32));
  const sealed = gcm.toStorage(bytes("value"), KEY);
  expect(sealed.length).toBe(12 + 5 + 16);
  expect(text(gcm.fromStorage(sealed, KEY))).toBe("value");
  expect(() => gcm.fromStorage(sealed, "/core/secrets/default/other")).toThrow("cipher: message authentication failed");
  sealed[14]! ^= 1;
  expect(() => gcm.fromStorage(sealed, KEY)).toThrow("cipher: message authentication failed");
});

// kube's aes_test.go TestGCMLegacyDataCompatibility: a value recorded from kube's NewGCMTransformer (key
// "snorlax_awesomes", authenticated data "bamboo"); written out here as hex.
test("aesgcm decodes kube's recorded GCM ciphertext (aes_test.go TestGCMLegacyDataCompatibility)", () => {
  const recorded = Buffer.from("9f27c8fcea8a58c467d8e437dbf2d85955f9b4bd912f4ef967d788a0cb07797dac0a3f0a0845605ca85ac8562b4ae1", "hex");
  const gcm = aesgcm(bytes("snorlax_awesomes"));
  expect(text(gcm.fromStorage(new Uint8Array(recorded), "bamboo"))).toBe("pandas are the best");
  expect(() => gcm.fromStorage(new Uint8Array(recorded), "panda")).toThrow("cipher: message authentication failed");
});

test("secretbox is a 24-byte nonce and an XSalsa20-Poly1305 box; another key cannot open it", () => {
  const secret = randomBytes(32);
  const sealed = secretbox(secret).toStorage(bytes("value"), KEY);
  expect(sealed.length).toBe(24 + 16 + 5);
  expect(text(secretbox(secret).fromStorage(sealed, KEY))).toBe("value");
  expect(() => secretbox(randomBytes(32)).fromStorage(sealed, KEY)).toThrow("output array was not large enough for encryption");
});

test("identity stores values as they are and refuses to read encrypted data", () => {
  expect(text(identity.fromStorage(identity.toStorage(bytes("{}"), KEY), KEY))).toBe("{}");
  expect(() => identity.fromStorage(bytes("k8s:enc:aescbc:v1:key1:xyz"), KEY)).toThrow("identity transformer tried to read encrypted data");
});
