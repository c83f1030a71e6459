/**
 * Credentials the server presents to webhooks (spec 5.12): the `users` of the kubeconfig named by the
 * WebhookAdmissionConfiguration, picked by the webhook's host[:port] as kube's AuthenticationInfoResolver does:
 * exact name, then `*.`-prefixed parent domains, then the same without a `:443` port, then `*`, then the
 * current context's user; none means no credentials.
 */
import { isAbsolute } from "node:path";
import * as v from "valibot";
import {
  ConfigFileError,
  type Kubeconfig,
  type KubeconfigUser,
  material,
  parseConfig,
  readKubeconfig,
  readReferencedFile,
} from "../../core/config/mod.ts";
import type { ClientCredentials } from "../../core/webhook/mod.ts";

export type CredentialsLookup = (hostPort: string) => ClientCredentials | undefined;

export const NO_CREDENTIALS: CredentialsLookup = () => undefined;

function wildcardNames(host: string): string[] {
  const steps = host.split(".");
  return steps.slice(1).map((_, i) => `*.${steps.slice(i + 1).join(".")}`);
}

export function credentialsLookup(users: ReadonlyMap<string, ClientCredentials>, currentUser?: string): CredentialsLookup {
  const byNames = (names: string[]) => names.map((name) => users.get(name)).find((found) => found !== undefined);
  return (hostPort) => {
    const found = byNames([hostPort, ...wildcardNames(hostPort)]);
    if (found) return found;
    const match = /^(.*):443$/.exec(hostPort);
    const withoutPort = match ? byNames([match[1], ...wildcardNames(match[1])]) : undefined;
    return withoutPort ?? users.get("*") ?? (currentUser === undefined ? undefined : users.get(currentUser));
  };
}

async function credentialsOf(config: Kubeconfig, user: KubeconfigUser): Promise<ClientCredentials> {
  const tokenFile = user.tokenFile ? await readReferencedFile(config, user.tokenFile) : undefined;
  const text = (value: string | undefined) => (value === "" ? undefined : value);
  return {
    cert: await material(config, user, "client-certificate"),
    key: await material(config, user, "client-key"),
    token: text(user.token) ?? tokenFile?.trim(),
    username: text(user.username),
    password: text(user.password),
  };
}

/** Reads a kubeconfig file's users (file paths inside it are relative to it, as in client-go). */
export async function readCredentialsKubeconfig(path: string): Promise<CredentialsLookup> {
  const config = await readKubeconfig(path);
  const users = new Map<string, ClientCredentials>();
  for (const entry of config.document.users) users.set(entry.name, await credentialsOf(config, entry.user));
  const current = config.document.contexts.find((entry) => entry.name === config.document["current-context"]);
  return credentialsLookup(users, current?.context.user);
}

// kube's WebhookAdmission configuration: the v1 kind, or the older v1alpha1 one.
const WEBHOOK_ADMISSION_CONFIGURATION = v.union([
  v.looseObject({
    apiVersion: v.literal("apiserver.config.k8s.io/v1"),
    kind: v.literal("WebhookAdmissionConfiguration"),
    kubeConfigFile: v.optional(v.string()),
  }),
  v.looseObject({
    apiVersion: v.literal("apiserver.k8s.io/v1alpha1"),
    kind: v.literal("WebhookAdmission"),
    kubeConfigFile: v.optional(v.string()),
  }),
], "Unsupported value: expected kind WebhookAdmissionConfiguration in apiserver.config.k8s.io/v1");

/** The kubeConfigFile of a plugin's WebhookAdmissionConfiguration section; undefined without one. */
export function kubeconfigPathOf(pluginConfig: unknown): string | undefined {
  if (pluginConfig === undefined || pluginConfig === null) return undefined;
  const path = parseConfig(WEBHOOK_ADMISSION_CONFIGURATION, pluginConfig, "WebhookAdmissionConfiguration").kubeConfigFile;
  if (path === undefined || path === "") return undefined;
  // kube's LoadConfig: "must be an absolute file path".
  if (!isAbsolute(path)) {
    throw new ConfigFileError(
      `WebhookAdmissionConfiguration: kubeConfigFile: Invalid value: ${JSON.stringify(path)}: must be an absolute file path`,
    );
  }
  return path;
}
