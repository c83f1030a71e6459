/**
 * A token or authorization webhook's kubeconfig-format file (spec 5.4): the current context's cluster (server
 * URL, CA) and user (the API server's client certificate). File paths are relative to the config file, as in client-go.
 */
import { ConfigFileError, type Kubeconfig, material, readKubeconfig } from "../../core/config/mod.ts";

export interface WebhookTarget {
  url: URL;
  ca?: string;
  cert?: string;
  key?: string;
  insecureSkipVerify: boolean;
}

/** The entry named `name`, or the only entry when no name is given. */
function named<T extends { name: string }>(items: T[], name: string | undefined, what: string, source: string): T {
  const found = name === undefined && items.length === 1 ? items[0] : items.find((item) => item.name === name);
  if (!found) throw new ConfigFileError(`${source}: no ${what} named ${JSON.stringify(name ?? "")}`);
  return found;
}

export async function readWebhookConfig(path: string): Promise<WebhookTarget> {
  const config: Kubeconfig = await readKubeconfig(path);
  const { contexts, clusters, users } = config.document;
  const context = contexts.length > 0 ? named(contexts, config.document["current-context"], "context", path).context : {};
  const cluster = named(clusters, context.cluster, "cluster", path).cluster;
  const user = users.length > 0 ? named(users, context.user, "user", path).user : {};
  if (cluster.server === undefined) throw new ConfigFileError(`${path}: the cluster has no server URL`);
  const url = new URL(cluster.server);
  if (url.protocol !== "https:") throw new ConfigFileError(`${path}: the webhook server must be an https URL, got ${cluster.server}`);
  return {
    url,
    ca: await material(config, cluster, "certificate-authority"),
    cert: await material(config, user, "client-certificate"),
    key: await material(config, user, "client-key"),
    insecureSkipVerify: cluster["insecure-skip-tls-verify"] === true,
  };
}
