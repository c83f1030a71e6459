/**
 * The `kms` provider of kube 1.26's EncryptionConfiguration: its fields checked as validateKMSConfiguration does
 * (defaults apiVersion v1, cachesize 1000, timeout 3s), and the transformer and health probe that
 * encryptionconfig's kmsPrefixTransformer builds for it: prefix `k8s:enc:kms:v1:<name>:` or
 * `k8s:enc:kms:v2:<name>:`, a gRPC client of the plugin at `unix://<path>`, or (kubun's addition) a TypeScript
 * module at `module://<path>`.
 */
import * as v from "valibot";
import { invalid } from "../../../config/mod.ts";
import { parseGoDuration } from "../../../api/go-duration.ts";
import type { PrefixedTransformer } from "../prefix-transformers.ts";
import { kmsV1Envelope, kmsV2Envelope } from "./envelope.ts";
import { type KmsProbe, kmsV1Probe, kmsV2Probe } from "./probe.ts";
import { type KmsPluginImporter, MODULE_SCHEME, moduleKmsV1Service, moduleKmsV2Service } from "./plugin-module.ts";

const UNIX_SCHEME = "unix://";

const positiveDuration = (issue: v.BaseIssue<unknown>) => invalid("timeout should be a positive value")(issue);

export const KMS_CONFIGURATION = v.pipe(
  v.looseObject({
    name: v.pipe(v.optional(v.string(), ""), v.check((name) => name !== "", "Required value: name is a mandatory field for a provider")),
    endpoint: v.pipe(
      v.optional(v.string(), ""),
      v.check((endpoint) => endpoint !== "", invalid("endpoint is a mandatory field for a kms")),
      // kube's validateKMSEndpoint takes only unix sockets; module:// is kubun's in-process plugin.
      v.check(
        (endpoint) => endpoint === "" || endpoint.startsWith(UNIX_SCHEME) || endpoint.startsWith(MODULE_SCHEME),
        (issue) => {
          const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(String(issue.input))?.[1] ?? "";
          return invalid(`unsupported scheme ${JSON.stringify(scheme)} for KMS provider, only unix is supported`)(issue);
        },
      ),
    ),
    cachesize: v.pipe(
      v.optional(v.number(), 1000),
      v.integer(),
      v.check((size) => size !== 0, invalid("cachesize should be a positive value, or negative to disable")),
    ),
    timeout: v.pipe(
      v.optional(v.string(), "3s"),
      v.check((text) => {
        try {
          return parseGoDuration(text) > 0;
        } catch {
          return false;
        }
      }, positiveDuration),
      v.transform(parseGoDuration),
    ),
    apiVersion: v.pipe(
      v.optional(v.string(), "v1"),
      // kube's unsupportedKMSAPIVersionErrFmt is filled with the field name, not the value.
      v.check(
        (version) => version === "v1" || version === "v2",
        invalid("unsupported apiVersion apiVersion for KMS provider, only v1 and v2 are supported"),
      ),
    ),
  }),
  v.forward(
    v.check(
      (kms) => kms.apiVersion === "v1" || !kms.name.includes(":"),
      (issue) => {
        const name = (issue.input as { name: string }).name;
        return `Invalid value: ${JSON.stringify(name)}: invalid KMS provider name ${name}, must not contain ':'`;
      },
    ),
    ["name"],
  ),
);

export type KmsConfiguration = v.InferOutput<typeof KMS_CONFIGURATION>;

export interface KmsProvider {
  prefixed: PrefixedTransformer;
  probe: KmsProbe;
  /** Closes the plugin connection. */
  close(): void;
}

/** @grpc/grpc-js is loaded (and costs start time and memory) only for a provider at a unix socket. */
const grpcClients = () => import("./grpc-service.ts");

export async function kmsProvider(config: KmsConfiguration, importer: KmsPluginImporter | undefined): Promise<KmsProvider> {
  const { name, endpoint, cachesize, timeout } = config;
  const module = () => {
    if (!importer) throw new Error(`KMS provider ${name}: plugin modules are not available here`);
    return { endpoint, name, timeoutMs: timeout, importer };
  };
  const isModule = endpoint.startsWith(MODULE_SCHEME);
  const socket = endpoint.slice(UNIX_SCHEME.length);
  if (config.apiVersion === "v1") {
    const service = isModule ? await moduleKmsV1Service(module()) : (await grpcClients()).grpcKmsV1Service(socket, timeout);
    return {
      prefixed: { prefix: `k8s:enc:kms:v1:${name}:`, transformer: kmsV1Envelope(service, cachesize) },
      probe: kmsV1Probe(name, service),
      close: () => service.close(),
    };
  }
  const service = isModule ? await moduleKmsV2Service(module()) : (await grpcClients()).grpcKmsV2Service(socket, timeout);
  return {
    prefixed: { prefix: `k8s:enc:kms:v2:${name}:`, transformer: kmsV2Envelope(service, cachesize) },
    probe: kmsV2Probe(name, service),
    close: () => service.close(),
  };
}
