/**
 * Credentials the server presents to webhooks (spec 5.12): the `users` of the kubeconfig named by the
 * WebhookAdmissionConfiguration, picked by the webhook's host[:port] as kube's AuthenticationInfoResolver does:
 * exact name, then `*.`-prefixed parent domains, then the same without a `:443` port, then `*`, then the
 * current context's user; none means no credentials.
 */
import { Buffer } from "node:buffer";
import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, join } from "node:path";
import { parse } from "yaml";
import { isPlainObject } from "../../core/api/types.ts";
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

async function material(entry: Record<string, unknown>, field: string, baseDir: string): Promise<string | undefined> {
  const inline = entry[`${field}-data`];
  if (typeof inline === "string" && inline !== "") return Buffer.from(inline, "base64").toString("utf8");
  const path = entry[field];
  if (typeof path !== "string" || path === "") return undefined;
  return await readFile(isAbsolute(path) ? path : join(baseDir, path), "utf8");
}

async function credentialsOf(user: Record<string, unknown>, baseDir: string): Promise<ClientCredentials> {
  const tokenFile = typeof user.tokenFile === "string" && user.tokenFile !== "" ? await readFile(isAbsolute(user.tokenFile) ? user.tokenFile : join(baseDir, user.tokenFile), "utf8") : undefined;
  const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
  return {
    cert: await material(user, "client-certificate", baseDir),
    key: await material(user, "client-key", baseDir),
    token: text(user.token) ?? tokenFile?.trim(),
    username: text(user.username),
    password: text(user.password),
  };
}

/** Reads a kubeconfig file's users (file paths inside it are relative to it, as in client-go). */
export async function readCredentialsKubeconfig(path: string): Promise<CredentialsLookup> {
  const config: unknown = parse(await readFile(path, "utf8"));
  if (!isPlainObject(config)) throw new Error(`${path}: not a kubeconfig file`);
  const users = new Map<string, ClientCredentials>();
  for (const entry of Array.isArray(config.users) ? config.users : []) {
    if (isPlainObject(entry) && typeof entry.name === "string" && isPlainObject(entry.user)) users.set(entry.name, await credentialsOf(entry.user, dirname(path)));
  }
  const contexts = Array.isArray(config.contexts) ? config.contexts.filter(isPlainObject) : [];
  const current = contexts.find((entry) => entry.name === config["current-context"]);
  const currentUser = isPlainObject(current?.context) && typeof current.context.user === "string" ? current.context.user : undefined;
  return credentialsLookup(users, currentUser);
}

const CONFIGURATION_VERSIONS = new Map([
  ["apiserver.config.k8s.io/v1", "WebhookAdmissionConfiguration"],
  ["apiserver.k8s.io/v1alpha1", "WebhookAdmission"],
]);

/** The kubeConfigFile of a plugin's WebhookAdmissionConfiguration section; undefined without one. */
export function kubeconfigPathOf(pluginConfig: unknown): string | undefined {
  if (pluginConfig === undefined || pluginConfig === null) return undefined;
  if (!isPlainObject(pluginConfig)) throw new Error("webhook admission configuration must be an object");
  const expectedKind = CONFIGURATION_VERSIONS.get(String(pluginConfig.apiVersion));
  if (!expectedKind || pluginConfig.kind !== expectedKind) {
    throw new Error(`webhook admission configuration: unsupported kind ${String(pluginConfig.kind)} in ${String(pluginConfig.apiVersion)}; expected WebhookAdmissionConfiguration in apiserver.config.k8s.io/v1`);
  }
  const path = pluginConfig.kubeConfigFile;
  if (path === undefined || path === "") return undefined;
  if (typeof path !== "string" || !isAbsolute(path)) throw new Error(`webhook admission configuration: kubeConfigFile: Invalid value: ${JSON.stringify(path)}: must be an absolute file path`);
  return path;
}
