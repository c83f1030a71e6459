import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KEY_ID, startKmsServer } from "./testdata/kms-plugin-server.ts";
import { kmsV1Envelope, kmsV2Envelope } from "./envelope.ts";
import { decode, V2 } from "./messages.ts";
import { grpcKmsV1Service, grpcKmsV2Service } from "./grpc-service.ts";
import { kmsV1Probe, kmsV2Probe } from "./probe.ts";

const dir = mkdtempSync(join(tmpdir(), "kubun-kms-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const KEY = "/core/secrets/default/s1";
const bytes = (text: string) => new TextEncoder().encode(text);
const text = (value: Uint8Array) => new TextDecoder().decode(value);
/** The message a call fails with ("" when it succeeds). */
async function failure(work: () => unknown): Promise<string> {
  try {
    await work();
    return "";
  } catch (error) {
    return (error as Error).message;
  }
}

test("KMS v1 envelope (kube's envelopeTransformer): a fresh DEK per write, stored as uint16 length + encrypted DEK + AES-GCM data", async () => {
  const plugin = await startKmsServer("v1", dir);
  const service = grpcKmsV1Service(plugin.endpoint.slice("unix://".length), 3000);
  try {
    const writer = kmsV1Envelope(service, 1000);
    const first = await writer.toStorage(bytes("value"), KEY);
    const second = await writer.toStorage(bytes("value"), KEY);
    expect(plugin.calls).toMatchObject({ version: 1, encrypt: 2, decrypt: 0 });
    const dekLength = (first[0]! << 8) | first[1]!;
    // The test plugin wraps a 32-byte DEK as nonce + ciphertext + tag; the value follows as nonce + ciphertext + tag.
    expect(dekLength).toBe(12 + 32 + 16);
    expect(first.length).toBe(2 + dekLength + 12 + 5 + 16);
    expect(Buffer.from(first.subarray(2, 2 + dekLength)).equals(Buffer.from(second.subarray(2, 2 + dekLength)))).toBe(false);
    // Written here: the DEK is cached, the read needs no plugin call and answers at once.
    const cachedRead = writer.fromStorage(first, KEY);
    expect(cachedRead).not.toBeInstanceOf(Promise);
    expect(text(cachedRead as Uint8Array)).toBe("value");
    // Another server (an empty cache) asks the plugin to decrypt the DEK.
    const reader = kmsV1Envelope(service, 1000);
    expect(text(await reader.fromStorage(first, KEY))).toBe("value");
    expect(plugin.calls.decrypt).toBe(1);
    expect(await failure(() => reader.fromStorage(first, "/core/secrets/default/other"))).toBe(
      "[cipher: message authentication failed, the stored data is not a multiple of the block size]",
    );
    expect(() => reader.fromStorage(new Uint8Array([0, 200, 1]), KEY)).toThrow(
      "invalid data encountered by envelope transformer: failed to read uint16 length prefixed data",
    );
    await kmsV1Probe("test", service)();
    plugin.setHealthy(false);
    expect(await failure(() => kmsV1Probe("test", service)())).toStartWith(
      "failed to perform encrypt section of the healthz check for KMS Provider test, error: rpc error: code = Unavailable desc = the key service is unreachable",
    );
  } finally {
    service.close();
    await plugin.stop();
  }
});

test("KMS v2 envelope (kube 1.26 kmsv2 envelopeTransformer): the EncryptedObject protobuf with key ID, encrypted DEK and annotations", async () => {
  const plugin = await startKmsServer("v2", dir);
  const service = grpcKmsV2Service(plugin.endpoint.slice("unix://".length), 3000);
  try {
    const stored = await kmsV2Envelope(service, 1000).toStorage(bytes("value"), KEY);
    const object = decode<{ keyID: string; encryptedDEK: Uint8Array; encryptedData: Uint8Array; annotations: Record<string, Uint8Array> }>(
      V2.EncryptedObject!,
      stored,
    );
    expect(object.keyID).toBe(KEY_ID);
    expect(object.encryptedDEK.length).toBe(12 + 32 + 16);
    expect(object.encryptedData.length).toBe(12 + 5 + 16);
    expect(text(object.annotations["kek-version.kms.example.com"]!)).toBe("1");
    expect(text(await kmsV2Envelope(service, 1000).fromStorage(stored, KEY))).toBe("value");
    expect(plugin.calls).toMatchObject({ encrypt: 1, decrypt: 1 });
    // kube's validateEncryptedObject on read.
    expect(() => kmsV2Envelope(service, 1000).fromStorage(new Uint8Array([0x12, 0x01, 0x6b]), KEY)).toThrow("encrypted data is empty");
    await kmsV2Probe("test", service)();
    plugin.setHealthy(false);
    expect(await failure(() => kmsV2Probe("test", service)())).toBe(
      "kmsv2 Provider test is not healthy, error: got unexpected healthz status: key service unreachable",
    );
  } finally {
    service.close();
    await plugin.stop();
  }
});

test("a KMS call past the provider's timeout fails instead of hanging the write", async () => {
  const service = grpcKmsV2Service(join(dir, "nobody-listens.sock"), 200);
  try {
    expect(await failure(() => kmsV2Envelope(service, 1000).toStorage(bytes("value"), KEY))).toStartWith(
      "failed to encrypt DEK, error: rpc error: code = ",
    );
  } finally {
    service.close();
  }
});
