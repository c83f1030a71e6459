/**
 * The KMS services the envelope transformers call, as kube's envelope.Service (v1) and kmsv2.Service (v2) define
 * them. Their gRPC clients are in grpc-service.ts, loaded only when a provider names a unix socket.
 */
export interface KmsV1Service {
  encrypt(plain: Uint8Array): Promise<Uint8Array>;
  decrypt(cipher: Uint8Array): Promise<Uint8Array>;
  close(): void;
}

export interface KmsV2EncryptResponse {
  ciphertext: Uint8Array;
  keyID: string;
  annotations: Record<string, Uint8Array>;
}

export interface KmsV2DecryptRequest {
  ciphertext: Uint8Array;
  keyID: string;
  annotations: Record<string, Uint8Array>;
}

export interface KmsV2Status {
  version: string;
  healthz: string;
  keyID: string;
}

export interface KmsV2Service {
  status(): Promise<KmsV2Status>;
  encrypt(uid: string, plaintext: Uint8Array): Promise<KmsV2EncryptResponse>;
  decrypt(uid: string, request: KmsV2DecryptRequest): Promise<Uint8Array>;
  close(): void;
}

/** kube's kmsapiVersion (envelope/grpc_service.go) in 1.26. */
export const V1_API_VERSION = "v1beta1";
/** kube's kmsv2.KMSAPIVersion in 1.26. */
export const V2_API_VERSION = "v2alpha1";
