/**
 * The --audit-webhook-config-file backend (k8s.io/apiserver plugin/pkg/audit/webhook): events POSTed as an
 * audit.k8s.io/v1 EventList to the kubeconfig's cluster, with the client certificate of its user; failed calls are
 * retried with kube's backoff (initial --audit-webhook-initial-backoff, factor 1.5, jitter 0.2, 5 steps).
 */
import { Buffer } from "node:buffer";
import { ConfigFileError, material, readKubeconfig } from "../config/mod.ts";
import { nodeHttps } from "../runtime/lazy-builtins.ts";

const TIMEOUT_MS = 30_000;
const RETRY_STEPS = 5;

export interface WebhookTarget {
  url: URL;
  ca?: string;
  cert?: string;
  key?: string;
  insecureSkipVerify: boolean;
}

/** The current context's cluster and user (the only entries when no context names them). */
export async function readAuditWebhookConfig(path: string): Promise<WebhookTarget> {
  const config = await readKubeconfig(path);
  const { contexts, clusters, users } = config.document;
  const contextName = config.document["current-context"];
  const context = contexts.find((entry) => entry.name === contextName)?.context ?? (contexts.length === 1 ? contexts[0]!.context : {});
  const cluster = clusters.find((entry) => entry.name === context.cluster)?.cluster ??
    (clusters.length === 1 ? clusters[0]!.cluster : undefined);
  const user = users.find((entry) => entry.name === context.user)?.user ?? (users.length === 1 ? users[0]!.user : {});
  if (!cluster?.server) throw new ConfigFileError(`${path}: the cluster has no server URL`);
  return {
    url: new URL(cluster.server),
    ca: await material(config, cluster, "certificate-authority"),
    cert: await material(config, user, "client-certificate"),
    key: await material(config, user, "client-key"),
    insecureSkipVerify: cluster["insecure-skip-tls-verify"] === true,
  };
}

/** Delivers JSON-serialized events in one EventList request, retrying transient failures. */
export function webhookDelivery(target: WebhookTarget, initialBackoffMs: number): (events: string[]) => Promise<void> {
  return async (events) => {
    const body = `{"kind":"EventList","apiVersion":"audit.k8s.io/v1","metadata":{},"items":[${events.join(",")}]}`;
    let delay = initialBackoffMs;
    for (let attempt = 1;; attempt++) {
      try {
        const status = await post(target, body);
        if (status >= 200 && status < 300) return;
        const error = new Error(`the audit webhook answered ${status}`);
        if (status !== 429 && status < 500) throw Object.assign(error, { final: true });
        throw error;
      } catch (error) {
        if ((error as { final?: boolean }).final || attempt >= RETRY_STEPS) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, delay * (1 + Math.random() * 0.2)));
      delay *= 1.5;
    }
  };
}

function post(target: WebhookTarget, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = nodeHttps().request(
      target.url,
      {
        method: "POST",
        ca: target.ca,
        cert: target.cert,
        key: target.key,
        rejectUnauthorized: !target.insecureSkipVerify,
        timeout: TIMEOUT_MS,
        headers: { "Content-Type": "application/json", Accept: "application/json", "Content-Length": Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    req.on("timeout", () => req.destroy(new Error(`${target.url.origin} did not answer in time`)));
    req.on("error", reject);
    req.end(body);
  });
}
