/**
 * A token or authorization webhook's kubeconfig-format file (spec 5.4): the current context's cluster (server
 * URL, CA) and user (the API server's client certificate). File paths are relative to the config file, as in client-go.
 */
import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, join } from "node:path";
import { parse } from "yaml";

export interface WebhookTarget {
  url: URL;
  ca?: string;
  cert?: string;
  key?: string;
  insecureSkipVerify: boolean;
}

type Entry = Record<string, unknown>;

function named(list: unknown, name: unknown, what: string, source: string): Entry {
  const items = Array.isArray(list) ? (list as Entry[]) : [];
  const found = name === undefined && items.length === 1 ? items[0] : items.find((item) => item.name === name);
  if (!found) throw new Error(`${source}: no ${what} named ${JSON.stringify(name ?? "")}`);
  return (found[what] ?? {}) as Entry;
}

async function material(entry: Entry, field: string, baseDir: string): Promise<string | undefined> {
  const inline = entry[`${field}-data`];
  if (typeof inline === "string" && inline !== "") return Buffer.from(inline, "base64").toString("utf8");
  const path = entry[field];
  if (typeof path !== "string" || path === "") return undefined;
  return await readFile(isAbsolute(path) ? path : join(baseDir, path), "utf8");
}

function parseWebhookConfig(text: string, source: string): Entry {
  const config = parse(text) as Entry | null;
  if (!config || typeof config !== "object") throw new Error(`${source}: not a kubeconfig file`);
  return config;
}

export async function readWebhookConfig(path: string): Promise<WebhookTarget> {
  const config = parseWebhookConfig(await readFile(path, "utf8"), path);
  const contexts = Array.isArray(config.contexts) ? (config.contexts as Entry[]) : [];
  const contextName = config["current-context"];
  const context = contexts.length > 0 ? named(contexts, contextName, "context", path) : {};
  const cluster = named(config.clusters, context.cluster, "cluster", path);
  const users = Array.isArray(config.users) ? config.users : [];
  const user = users.length > 0 ? named(users, context.user, "user", path) : {};
  if (typeof cluster.server !== "string") throw new Error(`${path}: the cluster has no server URL`);
  const url = new URL(cluster.server);
  if (url.protocol !== "https:") throw new Error(`${path}: the webhook server must be an https URL, got ${cluster.server}`);
  const baseDir = dirname(path);
  return {
    url,
    ca: await material(cluster, "certificate-authority", baseDir),
    cert: await material(user, "client-certificate", baseDir),
    key: await material(user, "client-key", baseDir),
    insecureSkipVerify: cluster["insecure-skip-tls-verify"] === true,
  };
}
