/**
 * Test support: a real HTTPS admission webhook on loopback (node:https) with its own CA, recording what it
 * receives and answering with the given function. Used by unit and end-to-end tests.
 */
import { Buffer } from "node:buffer";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import type { KubeObject } from "../../core/api/types.ts";
import type { ReadOnlyClient } from "../../core/api/client.ts";
import { Registry } from "prom-client";
import { builtInCatalog } from "../../core/registry/catalog.ts";
import { createCertificateAuthority, issueServingCertificate } from "../../core/server/certificates.ts";
import { NO_CREDENTIALS } from "./client-credentials.ts";
import { WebhookConfigurations } from "./configurations.ts";
import { matchContext } from "./match-context.ts";
import { rejectionRecorder } from "./metrics.ts";
import type { WebhookServices } from "./services.ts";

// deno-lint-ignore no-explicit-any
export type Review = any;

export interface ReceivedCall {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  review: Review;
}

export interface TestWebhookServer {
  /** `https://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Base64 PEM of the server's CA, ready for clientConfig.caBundle. */
  caBundle: string;
  calls: ReceivedCall[];
  close(): Promise<void>;
}

export type Answer = (review: Review, call: ReceivedCall) => unknown | Promise<unknown>;

/** The reply of a webhook in the request's AdmissionReview version, with `response` fields added. */
export function reply(review: Review, response: Record<string, unknown>): Review {
  return { apiVersion: review.apiVersion, kind: "AdmissionReview", response: { uid: review.request.uid, ...response } };
}

export function base64Patch(operations: unknown[]): string {
  return Buffer.from(JSON.stringify(operations)).toString("base64");
}

/** Starts the server; `hosts` are the names its certificate is valid for (127.0.0.1 always). */
export async function startWebhookServer(answer: Answer, options: { hosts?: string[] } = {}): Promise<TestWebhookServer> {
  const ca = await createCertificateAuthority("test-webhook-ca", { days: 1 });
  const serving = await issueServingCertificate(ca, {
    commonName: "test-webhook",
    hosts: ["127.0.0.1", ...(options.hosts ?? [])],
    days: 1,
  });
  const calls: ReceivedCall[] = [];
  const server: Server = createServer({ cert: serving.certPem, key: serving.keyPem }, (request, response) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (text += chunk));
    request.on("end", async () => {
      const call = { path: request.url ?? "", headers: request.headers, review: JSON.parse(text) };
      calls.push(call);
      try {
        const body = await answer(call.review, call);
        if (response.destroyed) return;
        response.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(body));
      } catch (error) {
        response.writeHead(500, { "Content-Type": "text/plain" }).end((error as Error).message);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    caBundle: Buffer.from(ca.certPem).toString("base64"),
    calls,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A read-only client over a fixed set of objects (watch is not supported). */
export function fixedClient(objects: KubeObject[]): ReadOnlyClient {
  const resourceOf = (object: KubeObject) => `${object.apiVersion}/${object.kind}`;
  const kinds: Record<string, string> = {
    namespaces: "v1/Namespace",
    services: "v1/Service",
    endpoints: "v1/Endpoints",
    endpointslices: "discovery.k8s.io/v1/EndpointSlice",
  };
  const ofType = (resource: string) => objects.filter((o) => resourceOf(o) === kinds[resource]);
  return {
    get: (ref) =>
      Promise.resolve(
        ofType(ref.resource).find((o) => o.metadata.name === ref.name && (o.metadata.namespace ?? "") === (ref.namespace ?? "")) ?? null,
      ),
    list: (ref) => Promise.resolve(ofType(ref.resource).filter((o) => !ref.namespace || o.metadata.namespace === ref.namespace)),
    watch: () => Promise.reject(new Error("fixedClient does not watch")),
  };
}

/** Webhook services over fixed configurations, with their own metrics registry. */
export function servicesFor(
  configurations: KubeObject[],
  client: ReadOnlyClient = fixedClient([]),
): WebhookServices & { metrics: Registry } {
  const followed = new WebhookConfigurations();
  for (const object of configurations) followed.apply({ type: "ADDED", object });
  const metrics = new Registry();
  return {
    client,
    credentials: NO_CREDENTIALS,
    configurations: followed,
    match: matchContext(builtInCatalog(), client),
    rejections: rejectionRecorder(metrics),
    metrics,
  };
}

/** A configuration object of one webhook calling `url` for every CREATE of ConfigMaps. */
export function configurationFor(
  kind: "MutatingWebhookConfiguration" | "ValidatingWebhookConfiguration",
  name: string,
  server: TestWebhookServer,
  fields: Record<string, unknown> = {},
): KubeObject {
  const webhook = {
    name: `${name}.example.com`,
    clientConfig: { url: `${server.url}/${name}`, caBundle: server.caBundle },
    rules: [{ operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["configmaps"] }],
    sideEffects: "None",
    admissionReviewVersions: ["v1"],
    ...fields,
  };
  return { apiVersion: "admissionregistration.k8s.io/v1", kind, metadata: { name }, webhooks: [webhook] };
}
