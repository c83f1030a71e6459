/**
 * --encryption-provider-config: kube's EncryptionConfiguration (apiserver.config.k8s.io/v1, YAML or JSON), checked
 * as kube 1.26's ValidateEncryptionConfiguration, into one PrefixTransformers per resource and the KMS plugins'
 * health probes.
 */
import { Buffer } from "node:buffer";
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import * as v from "valibot";
import { ConfigFileError, parseConfig } from "../../config/mod.ts";
import { aescbc, aesgcm, identity, secretbox, type ValueTransformer } from "./providers.ts";
import { type PrefixedTransformer, PrefixTransformers } from "./prefix-transformers.ts";
import type { TransformationRecorder } from "./metrics.ts";
import { KMS_CONFIGURATION, type KmsProvider, kmsProvider } from "./kms/provider.ts";
import type { KmsProbe } from "./kms/probe.ts";
import type { KmsPluginImporter } from "./kms/plugin-module.ts";

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
    kms: v.optional(KMS_CONFIGURATION),
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

function transformersOf(provider: Provider): PrefixedTransformer[] {
  const [kind] = kindsOf(provider);
  if (kind === "identity") return [{ prefix: "", transformer: identity }];
  if (kind === "kms") throw new Error("kms providers are built by kmsProvider");
  return provider[kind!]!.keys.map((key) => ({
    prefix: `k8s:enc:${kind}:v1:${key.name}:`,
    transformer: CIPHERS[kind!](decodeBase64(key.secret)!),
  }));
}

export interface EncryptionPlan {
  /** The transformers by resource as kube names it in the file: `secrets`, `deployments.apps`, `widgets.example.com`. */
  transformers: Map<string, PrefixTransformers>;
  /** One probe per kms provider in file order (kube's health checks kms-provider-0, -1, ...). */
  kmsProbes: KmsProbe[];
  /** Whether only KMS v2 providers are used (kube then names a single check kms-providers). */
  onlyKmsV2: boolean;
  /** Closes the KMS plugin connections. */
  close(): void;
}

export interface EncryptionConfigurationOptions {
  record?: TransformationRecorder;
  /** --encryption-provider-config-automatic-reload: KMS v1 names must then be unique too. */
  reload?: boolean;
  /** Loads `module://` KMS plugins. */
  importKmsPlugin?: KmsPluginImporter;
}

/** kube's validateKMSConfigName uniqueness rule: v2 names always, v1 names when the file is reloaded. */
function checkUniqueKmsNames(config: { resources: { providers: Provider[] }[] }, path: string, reload: boolean): void {
  const seen = new Set<string>();
  const problems: string[] = [];
  config.resources.forEach((entry, i) =>
    entry.providers.forEach((provider, j) => {
      if (!provider.kms) return;
      const { name, apiVersion } = provider.kms;
      if ((reload || apiVersion !== "v1") && seen.has(name)) {
        problems.push(
          `resources[${i}].providers[${j}].kms.name: Invalid value: ${
            JSON.stringify(name)
          }: duplicate KMS provider name ${name}, names must be unique`,
        );
      }
      seen.add(name);
    })
  );
  if (problems.length > 0) {
    throw new ConfigFileError(`error while parsing file ${path}: ${problems.length === 1 ? problems[0] : `[${problems.join(", ")}]`}`);
  }
}

export async function readEncryptionConfiguration(path: string, options: EncryptionConfigurationOptions = {}): Promise<EncryptionPlan> {
  let document: unknown;
  try {
    document = parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ConfigFileError(`error while parsing file ${path}: ${(error as Error).message}`, { cause: error });
  }
  const config = parseConfig(ENCRYPTION_CONFIGURATION, document, `error while parsing file ${path}`);
  checkUniqueKmsNames(config, path, options.reload ?? false);
  const transformers = new Map<string, PrefixTransformers>();
  const kms: KmsProvider[] = [];
  const close = () => kms.forEach((provider) => provider.close());
  try {
    for (const entry of config.resources) {
      const prefixed: PrefixedTransformer[] = [];
      for (const provider of entry.providers) {
        if (!provider.kms) {
          prefixed.push(...transformersOf(provider));
          continue;
        }
        const built = await kmsProvider(provider.kms, options.importKmsPlugin);
        kms.push(built);
        prefixed.push(built.prefixed);
      }
      const resourceTransformers = new PrefixTransformers(prefixed, options.record);
      // The first entry naming a resource wins, as kube's resource-to-transformer map is filled in order.
      for (const resource of entry.resources) if (!transformers.has(resource)) transformers.set(resource, resourceTransformers);
    }
  } catch (error) {
    close();
    throw new ConfigFileError(`error while building transformers: ${(error as Error).message}`, { cause: error });
  }
  const apiVersions = new Set(config.resources.flatMap((entry) => entry.providers.flatMap((p) => (p.kms ? [p.kms.apiVersion] : []))));
  return {
    transformers,
    kmsProbes: kms.map((provider) => provider.probe),
    onlyKmsV2: apiVersions.has("v2") && !apiVersions.has("v1"),
    close,
  };
}
