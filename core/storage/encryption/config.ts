/**
 * --encryption-provider-config: kube's EncryptionConfiguration (apiserver.config.k8s.io/v1, YAML or JSON), checked
 * as kube 1.26's ValidateEncryptionConfiguration, into one PrefixTransformers per resource.
 */
import { Buffer } from "node:buffer";
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import * as v from "valibot";
import { ConfigFileError, parseConfig } from "../../config/mod.ts";
import { aescbc, aesgcm, identity, secretbox, type ValueTransformer } from "./providers.ts";
import { type PrefixedTransformer, PrefixTransformers } from "./prefix-transformers.ts";
import type { TransformationRecorder } from "./metrics.ts";

const AES_KEY_SIZES = [16, 24, 32];
const SECRETBOX_KEY_SIZES = [32];
const PROVIDER_KINDS = ["kms", "aesgcm", "aescbc", "secretbox", "identity"] as const;
type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** kube's validateKey: name and secret required, the secret base64 of a key of an allowed size (never echoed). */
const keysOf = (sizes: number[]) =>
  v.pipe(
    v.array(
      v.looseObject({
        name: v.pipe(v.string(), v.minLength(1, "Required value: name is a mandatory field for a key")),
        secret: v.pipe(
          v.string(),
          v.minLength(1, "Required value: secret is a mandatory field for a key"),
          v.check((secret) => decodeBase64(secret) !== undefined, 'Invalid value: "REDACTED": secrets must be base64 encoded'),
          v.check(
            (secret) => sizes.includes(decodeBase64(secret)?.length ?? -1),
            (issue) =>
              `Invalid value: "REDACTED": secret is not of the expected length, got ${
                decodeBase64(issue.input as string)?.length
              }, expected one of [${sizes.join(" ")}]`,
          ),
        ),
      }),
    ),
    v.minLength(1, "Required value: at least one keys is required"),
  );

const PROVIDER = v.pipe(
  v.looseObject({
    aescbc: v.optional(v.looseObject({ keys: keysOf(AES_KEY_SIZES) })),
    aesgcm: v.optional(v.looseObject({ keys: keysOf(AES_KEY_SIZES) })),
    secretbox: v.optional(v.looseObject({ keys: keysOf(SECRETBOX_KEY_SIZES) })),
    identity: v.optional(v.looseObject({})),
    kms: v.optional(v.looseObject({})),
  }),
  // kube's validateSingleProvider.
  v.check(
    (provider) => kindsOf(provider).length > 0,
    "Invalid value: provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity",
  ),
  v.check(
    (provider) => kindsOf(provider).length < 2,
    "Invalid value: more than one provider specified in a single element, should split into different list elements",
  ),
);

const ENCRYPTION_CONFIGURATION = v.looseObject({
  apiVersion: v.literal("apiserver.config.k8s.io/v1"),
  kind: v.literal("EncryptionConfiguration"),
  resources: v.pipe(
    v.array(
      v.looseObject({
        resources: v.pipe(v.array(v.string()), v.minLength(1, "Required value: at least one resources is required")),
        providers: v.pipe(v.array(PROVIDER), v.minLength(1, "Required value: at least one providers is required")),
      }),
    ),
    v.minLength(1, "Required value: at least one resources is required"),
  ),
});

type Provider = v.InferOutput<typeof PROVIDER>;

function kindsOf(provider: Record<string, unknown>): ProviderKind[] {
  return PROVIDER_KINDS.filter((kind) => provider[kind] !== undefined);
}

function decodeBase64(text: string): Uint8Array | undefined {
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) return undefined;
  return new Uint8Array(Buffer.from(text, "base64"));
}

const CIPHERS: Record<"aescbc" | "aesgcm" | "secretbox", (secret: Uint8Array) => ValueTransformer> = { aescbc, aesgcm, secretbox };

function transformersOf(provider: Provider, source: string): PrefixedTransformer[] {
  const [kind] = kindsOf(provider);
  if (kind === "identity") return [{ prefix: "", transformer: identity }];
  if (kind === "kms") throw new ConfigFileError(`${source}: the kms provider is not available in kubun; use aescbc, aesgcm or secretbox`);
  return provider[kind!]!.keys.map((key) => ({
    prefix: `k8s:enc:${kind}:v1:${key.name}:`,
    transformer: CIPHERS[kind!](decodeBase64(key.secret)!),
  }));
}

/** The transformers by resource as kube names it in the file: `secrets`, `deployments.apps`, `widgets.example.com`. */
export type EncryptionPlan = Map<string, PrefixTransformers>;

export function readEncryptionConfiguration(path: string, record?: TransformationRecorder): EncryptionPlan {
  let document: unknown;
  try {
    document = parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ConfigFileError(`error while parsing file ${path}: ${(error as Error).message}`, { cause: error });
  }
  const config = parseConfig(ENCRYPTION_CONFIGURATION, document, `error while parsing file ${path}`);
  const plan: EncryptionPlan = new Map();
  for (const [index, entry] of config.resources.entries()) {
    const transformers = new PrefixTransformers(
      entry.providers.flatMap((provider, j) => transformersOf(provider, `${path}: resources[${index}].providers[${j}]`)),
      record,
    );
    // The first entry naming a resource wins, as kube's resource-to-transformer map is filled in order.
    for (const resource of entry.resources) if (!plan.has(resource)) plan.set(resource, transformers);
  }
  return plan;
}
