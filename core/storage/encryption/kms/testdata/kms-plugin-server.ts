/**
 * A KMS plugin for the tests: kube's KMS gRPC API (v1beta1 or v2alpha1 `KeyManagementService`) served on a unix
 * socket by @grpc/grpc-js in the test process, wrapping DEKs with AES-256-GCM under a key of its own. It counts
 * the calls and can be made unhealthy, so tests see what the server asks of its plugin.
 */
import { Server, ServerCredentials, status as grpcStatus, type UntypedServiceImplementation } from "@grpc/grpc-js";
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { join } from "node:path";
import type protobuf from "protobufjs/light.js";
import { decode, encode, V1, V2 } from "../messages.ts";

export interface KmsTestServer {
  endpoint: string;
  calls: { encrypt: number; decrypt: number; status: number; version: number };
  /** Makes Status (v2) or Encrypt (v1) fail, as a plugin that lost its key service. */
  setHealthy(healthy: boolean): void;
  stop(): Promise<void>;
}

export const KEY_ID = "test-kek-1";

function wrap(kek: Buffer, plain: Uint8Array): Uint8Array {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", kek, nonce);
  return new Uint8Array(Buffer.concat([nonce, cipher.update(plain), cipher.final(), cipher.getAuthTag()]));
}

function unwrap(kek: Buffer, sealed: Uint8Array): Uint8Array {
  const data = Buffer.from(sealed);
  const decipher = createDecipheriv("aes-256-gcm", kek, data.subarray(0, 12));
  decipher.setAuthTag(data.subarray(data.length - 16));
  return new Uint8Array(Buffer.concat([decipher.update(data.subarray(12, data.length - 16)), decipher.final()]));
}

function method(service: string, name: string, request: protobuf.Type, response: protobuf.Type) {
  return {
    path: `/${service}/${name}`,
    requestStream: false,
    responseStream: false,
    requestSerialize: (value: Record<string, unknown>) => Buffer.from(encode(request, value)),
    requestDeserialize: (bytes: Buffer) => decode(request, bytes),
    responseSerialize: (value: Record<string, unknown>) => Buffer.from(encode(response, value)),
    responseDeserialize: (bytes: Buffer) => decode(response, bytes),
  };
}

type Handler = (request: Record<string, unknown>) => Record<string, unknown>;

/** A unary handler that answers with the function's result, or with gRPC status UNAVAILABLE when it throws. */
function unary(handler: Handler) {
  return (call: { request: Record<string, unknown> }, callback: (error: unknown, value?: unknown) => void) => {
    try {
      callback(null, handler(call.request));
    } catch (error) {
      callback({ code: grpcStatus.UNAVAILABLE, details: (error as Error).message });
    }
  };
}

export async function startKmsServer(version: "v1" | "v2", dir: string): Promise<KmsTestServer> {
  const kek = randomBytes(32);
  const calls = { encrypt: 0, decrypt: 0, status: 0, version: 0 };
  let healthy = true;
  const server = new Server();
  const checkHealthy = () => {
    if (!healthy) throw new Error("the key service is unreachable");
  };
  if (version === "v1") {
    const service = "v1beta1.KeyManagementService";
    server.addService({
      Version: method(service, "Version", V1.VersionRequest!, V1.VersionResponse!),
      Encrypt: method(service, "Encrypt", V1.EncryptRequest!, V1.EncryptResponse!),
      Decrypt: method(service, "Decrypt", V1.DecryptRequest!, V1.DecryptResponse!),
    }, {
      Version: unary(() => (calls.version++, { version: "v1beta1", runtimeName: "test-kms", runtimeVersion: "0.1.0" })),
      Encrypt: unary((request) => (calls.encrypt++, checkHealthy(), { cipher: wrap(kek, request.plain as Uint8Array) })),
      Decrypt: unary((request) => (calls.decrypt++, { plain: unwrap(kek, request.cipher as Uint8Array) })),
    } as UntypedServiceImplementation);
  } else {
    const service = "v2alpha1.KeyManagementService";
    server.addService({
      Status: method(service, "Status", V2.StatusRequest!, V2.StatusResponse!),
      Encrypt: method(service, "Encrypt", V2.EncryptRequest!, V2.EncryptResponse!),
      Decrypt: method(service, "Decrypt", V2.DecryptRequest!, V2.DecryptResponse!),
    }, {
      Status: unary(() => (calls.status++, { version: "v2alpha1", healthz: healthy ? "ok" : "key service unreachable", keyId: KEY_ID })),
      Encrypt: unary((request) => {
        calls.encrypt++;
        checkHealthy();
        const annotations = { "kek-version.kms.example.com": new TextEncoder().encode("1") };
        return { ciphertext: wrap(kek, request.plaintext as Uint8Array), keyId: KEY_ID, annotations };
      }),
      Decrypt: unary((request) => {
        calls.decrypt++;
        if (request.keyId !== KEY_ID) throw new Error(`unknown key ${request.keyId}`);
        return { plaintext: unwrap(kek, request.ciphertext as Uint8Array) };
      }),
    } as UntypedServiceImplementation);
  }
  const socket = join(dir, `kms-${version}.sock`);
  await new Promise<void>((resolve, reject) =>
    server.bindAsync(`unix://${socket}`, ServerCredentials.createInsecure(), (error) => (error ? reject(error) : resolve()))
  );
  return {
    endpoint: `unix://${socket}`,
    calls,
    setHealthy: (value) => void (healthy = value),
    stop: () => new Promise((resolve) => server.tryShutdown(() => resolve())),
  };
}
