/**
 * The gRPC clients of the KMS services on a unix socket (kube's envelope/grpc_service.go and kmsv2/grpc_service.go):
 * every call carries the provider's timeout as its deadline; the v1 client asks the plugin's Version once before its
 * first Encrypt or Decrypt and refuses a plugin that does not speak v1beta1.
 */
import { type Client, credentials, makeGenericClientConstructor, Metadata } from "@grpc/grpc-js";
import type protobuf from "protobufjs/light.js";
import { decode, encode, V1, V2 } from "./messages.ts";
import { GrpcError } from "./grpc-error.ts";
import { type KmsV1Service, type KmsV2Service, V1_API_VERSION, V2_API_VERSION } from "./service.ts";

type Call = <T>(method: string, request: protobuf.Type, response: protobuf.Type, value: Record<string, unknown>) => Promise<T>;

/** A unary caller of `<package>.KeyManagementService` at a unix socket path. */
function unaryCaller(socketPath: string, service: string, timeoutMs: number): { call: Call; close(): void } {
  const GenericClient = makeGenericClientConstructor({}, service);
  const client: Client = new GenericClient(`unix://${socketPath}`, credentials.createInsecure());
  const call: Call = (method, request, response, value) =>
    new Promise((resolve, reject) => {
      client.makeUnaryRequest(
        `/${service}/${method}`,
        (message: Record<string, unknown>) => Buffer.from(encode(request, message)),
        (bytes: Buffer) => decode(response, bytes),
        value,
        new Metadata(),
        { deadline: Date.now() + timeoutMs },
        (error, result) => (error ? reject(new GrpcError(error.code, error.details)) : resolve(result as never)),
      );
    });
  return { call, close: () => client.close() };
}

export function grpcKmsV1Service(socketPath: string, timeoutMs: number): KmsV1Service {
  const { call, close } = unaryCaller(socketPath, `${V1_API_VERSION}.KeyManagementService`, timeoutMs);
  let versionChecked: Promise<void> | undefined;
  const checkVersion = () =>
    versionChecked ??= call<{ version: string }>("Version", V1.VersionRequest!, V1.VersionResponse!, { version: V1_API_VERSION })
      .then(({ version }) => {
        if (version !== V1_API_VERSION) {
          throw new Error(`KMS provider api version ${version} is not supported, only ${V1_API_VERSION} is supported now`);
        }
      })
      .catch((error) => {
        versionChecked = undefined;
        throw error;
      });
  return {
    async encrypt(plain) {
      await checkVersion();
      const { cipher } = await call<{ cipher: Uint8Array }>("Encrypt", V1.EncryptRequest!, V1.EncryptResponse!, {
        version: V1_API_VERSION,
        plain,
      });
      return cipher;
    },
    async decrypt(cipher) {
      await checkVersion();
      const { plain } = await call<{ plain: Uint8Array }>("Decrypt", V1.DecryptRequest!, V1.DecryptResponse!, {
        version: V1_API_VERSION,
        cipher,
      });
      return plain;
    },
    close,
  };
}

export function grpcKmsV2Service(socketPath: string, timeoutMs: number): KmsV2Service {
  const { call, close } = unaryCaller(socketPath, `${V2_API_VERSION}.KeyManagementService`, timeoutMs);
  return {
    async status() {
      const status = await call<{ version: string; healthz: string; keyId: string }>("Status", V2.StatusRequest!, V2.StatusResponse!, {});
      return { version: status.version, healthz: status.healthz, keyID: status.keyId };
    },
    async encrypt(uid, plaintext) {
      const response = await call<{ ciphertext: Uint8Array; keyId: string; annotations: Record<string, Uint8Array> }>(
        "Encrypt",
        V2.EncryptRequest!,
        V2.EncryptResponse!,
        { plaintext, uid },
      );
      return { ciphertext: response.ciphertext, keyID: response.keyId, annotations: response.annotations };
    },
    async decrypt(uid, request) {
      const { plaintext } = await call<{ plaintext: Uint8Array }>("Decrypt", V2.DecryptRequest!, V2.DecryptResponse!, {
        ciphertext: request.ciphertext,
        uid,
        keyId: request.keyID,
        annotations: request.annotations,
      });
      return plaintext;
    },
    close,
  };
}
