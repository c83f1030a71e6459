/**
 * kube's KMS plugin health probes (encryptionconfig kmsPluginProbe / kmsv2PluginProbe): v1 encrypts and decrypts
 * "ping", v2 asks Status and wants healthz "ok", API version v2alpha1 and a key ID. An answer is kept for 20 s
 * when healthy and 3 s when not, so /healthz does not call the plugin on every probe.
 */
import type { KmsV1Service, KmsV2Service } from "./service.ts";
import { V2_API_VERSION } from "./service.ts";

export type KmsProbe = () => Promise<void>;

const POSITIVE_TTL_MS = 20_000;
const NEGATIVE_TTL_MS = 3_000;

function cached(check: () => Promise<void>): KmsProbe {
  let last: { error?: Error; at: number; ttl: number } | undefined;
  return async () => {
    if (!last || Date.now() - last.at >= last.ttl) {
      try {
        await check();
        last = { at: Date.now(), ttl: POSITIVE_TTL_MS };
      } catch (error) {
        last = { error: error as Error, at: Date.now(), ttl: NEGATIVE_TTL_MS };
      }
    }
    if (last.error) throw last.error;
  };
}

export function kmsV1Probe(name: string, service: KmsV1Service): KmsProbe {
  return cached(async () => {
    let cipher: Uint8Array;
    try {
      cipher = await service.encrypt(new TextEncoder().encode("ping"));
    } catch (error) {
      throw new Error(
        `failed to perform encrypt section of the healthz check for KMS Provider ${name}, error: ${(error as Error).message}`,
      );
    }
    try {
      await service.decrypt(cipher);
    } catch (error) {
      throw new Error(
        `failed to perform decrypt section of the healthz check for KMS Provider ${name}, error: ${(error as Error).message}`,
      );
    }
  });
}

/** kube's isKMSv2ProviderHealthy. */
export function kmsV2Probe(name: string, service: KmsV2Service): KmsProbe {
  return cached(async () => {
    let status;
    try {
      status = await service.status();
    } catch (error) {
      throw new Error(`failed to perform status section of the healthz check for KMS Provider ${name}, error: ${(error as Error).message}`);
    }
    const problems: string[] = [];
    if (status.healthz !== "ok") problems.push(`got unexpected healthz status: ${status.healthz}`);
    if (status.version !== V2_API_VERSION) problems.push(`expected KMSv2 API version ${V2_API_VERSION}, got ${status.version}`);
    if (status.keyID === "") problems.push(`expected KMSv2 KeyID to be set, got ${status.keyID}`);
    if (problems.length > 0) {
      const reason = problems.length === 1 ? problems[0] : `[${problems.join(", ")}]`;
      throw new Error(`kmsv2 Provider ${name} is not healthy, error: ${reason}`);
    }
  });
}
