/**
 * A tiny aggregated API server for tests: https on loopback with its own CA, serving discovery for
 * wardle.example.com/v1 and one namespaced resource (flunders: list, get, and a watch that stays open), and
 * recording who each request came from. Like a k8s.io/apiserver server it trusts a caller only as the front proxy
 * the extension-apiserver-authentication ConfigMap describes (CA, allowed names, header names); others get 401.
 * It publishes the Flunder schema in /openapi/v2 and /openapi/v3 for the aggregator to merge.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createServer as createTlsServer, type TLSSocket } from "node:tls";
import { createCertificateAuthority, issueServingCertificate } from "../core/server/certificates.ts";

export const WARDLE_GROUP_VERSION = "wardle.example.com/v1";

export interface SeenRequest {
  path: string;
  user: string | undefined;
  groups: string[];
  clientCommonName: string | undefined;
  /** Whether the client certificate verified against the CA the server was told to trust. */
  clientVerified: boolean;
}

/** What the server trusts, as the ConfigMap's requestheader-* keys publish it. */
export interface FrontProxyTrust {
  caPem: string;
  allowedNames: string[];
  usernameHeaders: string[];
  groupHeaders: string[];
}

export interface AggregatedServer {
  port: number;
  caPem: string;
  seen: SeenRequest[];
  stop(): Promise<void>;
}

const FLUNDER = {
  apiVersion: WARDLE_GROUP_VERSION,
  kind: "Flunder",
  metadata: { name: "my-flunder", namespace: "default", creationTimestamp: "2024-01-01T00:00:00Z" },
};

const RESOURCES = {
  kind: "APIResourceList",
  apiVersion: "v1",
  groupVersion: WARDLE_GROUP_VERSION,
  resources: [{ name: "flunders", singularName: "flunder", namespaced: true, kind: "Flunder", verbs: ["get", "list", "watch"] }],
};

const FLUNDER_GVK = [{ group: "wardle.example.com", version: "v1", kind: "Flunder" }];
const REFERENCE_DESCRIPTION = "The name of another flunder this one refers to.";

/** The Flunder schema in OpenAPI v2 (`#/definitions/`) or v3 (`#/components/schemas/`) form. */
function flunderSchemas(refPrefix: string): Record<string, unknown> {
  return {
    "com.example.wardle.v1.Flunder": {
      type: "object",
      description: "A flunder of the wardle test server.",
      properties: {
        apiVersion: { type: "string" },
        kind: { type: "string" },
        spec: { $ref: `${refPrefix}com.example.wardle.v1.FlunderSpec` },
      },
      "x-kubernetes-group-version-kind": FLUNDER_GVK,
    },
    "com.example.wardle.v1.FlunderSpec": {
      type: "object",
      properties: { reference: { type: "string", description: REFERENCE_DESCRIPTION } },
    },
  };
}

const OPENAPI_V2 = { swagger: "2.0", info: { title: "wardle", version: "v1" }, paths: {}, definitions: flunderSchemas("#/definitions/") };
/** kubectl explain finds a resource's kind through the GET operation of its path. */
const FLUNDER_PATH = {
  [`/apis/${WARDLE_GROUP_VERSION}/namespaces/{namespace}/flunders/{name}`]: {
    get: {
      operationId: "readWardleV1NamespacedFlunder",
      responses: {
        "200": {
          description: "OK",
          content: { "application/json": { schema: { $ref: "#/components/schemas/com.example.wardle.v1.Flunder" } } },
        },
      },
      "x-kubernetes-action": "get",
      "x-kubernetes-group-version-kind": FLUNDER_GVK[0],
    },
  },
};
const OPENAPI_V3_DOCUMENT = {
  openapi: "3.0.0",
  info: { title: "wardle", version: "v1" },
  paths: FLUNDER_PATH,
  components: { schemas: flunderSchemas("#/components/schemas/") },
};
const OPENAPI_V3_INDEX = {
  paths: { [`apis/${WARDLE_GROUP_VERSION}`]: { serverRelativeURL: `/openapi/v3/apis/${WARDLE_GROUP_VERSION}?hash=1` } },
};

function answer(request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? "/", "https://wardle");
  const send = (status: number, body: unknown) => {
    response.writeHead(status, { "Content-Type": "application/json" });
    response.end(JSON.stringify(body));
  };
  if (url.pathname === `/apis/${WARDLE_GROUP_VERSION}`) return send(200, RESOURCES);
  if (url.pathname === "/openapi/v2") return send(200, OPENAPI_V2);
  if (url.pathname === "/openapi/v3") return send(200, OPENAPI_V3_INDEX);
  if (url.pathname === `/openapi/v3/apis/${WARDLE_GROUP_VERSION}`) return send(200, OPENAPI_V3_DOCUMENT);
  if (url.pathname === `/apis/${WARDLE_GROUP_VERSION}/namespaces/default/flunders` && url.searchParams.get("watch") === "true") {
    // The first event goes out at once and the stream stays open: only an unbuffered proxy lets a client see it.
    response.writeHead(200, { "Content-Type": "application/json" });
    response.write(`${JSON.stringify({ type: "ADDED", object: FLUNDER })}\n`);
    return;
  }
  if (url.pathname === `/apis/${WARDLE_GROUP_VERSION}/namespaces/default/flunders`) {
    return send(200, { apiVersion: WARDLE_GROUP_VERSION, kind: "FlunderList", metadata: { resourceVersion: "1" }, items: [FLUNDER] });
  }
  if (url.pathname === `/apis/${WARDLE_GROUP_VERSION}/namespaces/default/flunders/my-flunder`) return send(200, FLUNDER);
  // A list over kube's 128 KiB gzip threshold, sent uncompressed whatever the client accepts.
  if (url.pathname === `/apis/${WARDLE_GROUP_VERSION}/namespaces/large/flunders`) {
    const large = { ...FLUNDER, metadata: { ...FLUNDER.metadata, annotations: { padding: "x".repeat(200 * 1024) } } };
    return send(200, { apiVersion: WARDLE_GROUP_VERSION, kind: "FlunderList", metadata: { resourceVersion: "1" }, items: [large] });
  }
  send(404, { kind: "Status", apiVersion: "v1", status: "Failure", reason: "NotFound", code: 404, message: "not found" });
}

/** Starts the server with a certificate for `serviceHost` (`<service>.<namespace>.svc`), trusting the front proxy `trust` describes. */
export async function startAggregatedServer(serviceHost: string, trust: FrontProxyTrust): Promise<AggregatedServer> {
  const ca = await createCertificateAuthority("wardle-ca", { days: 1 });
  const serving = await issueServingCertificate(ca, { commonName: "wardle", hosts: [serviceHost], days: 1 });
  const seen: SeenRequest[] = [];
  const http = createHttpServer((request, response) => {
    const socket = request.socket as TLSSocket;
    const cert = socket.getPeerCertificate();
    const clientCommonName = cert?.subject?.CN as string | undefined;
    const groups = trust.groupHeaders.flatMap((header) => request.headersDistinct[header.toLowerCase()] ?? []);
    const user = trust.usernameHeaders.map((header) => request.headers[header.toLowerCase()] as string | undefined).find(Boolean);
    seen.push({ path: request.url ?? "", user, groups, clientCommonName, clientVerified: socket.authorized });
    const trustedProxy = socket.authorized && (trust.allowedNames.length === 0 || trust.allowedNames.includes(clientCommonName ?? ""));
    if (!trustedProxy || !user) {
      response.writeHead(401, { "Content-Type": "application/json" });
      response.end(
        JSON.stringify({ kind: "Status", apiVersion: "v1", status: "Failure", reason: "Unauthorized", code: 401, message: "Unauthorized" }),
      );
      return;
    }
    answer(request, response);
  });
  const sockets = new Set<TLSSocket>();
  const tls = createTlsServer({
    key: serving.keyPem,
    cert: serving.certPem,
    ca: trust.caPem,
    requestCert: true,
    rejectUnauthorized: false,
    ALPNProtocols: ["http/1.1"],
  });
  tls.on("secureConnection", (socket: TLSSocket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    http.emit("connection", socket);
  });
  await new Promise<void>((resolve) => tls.listen(0, "127.0.0.1", resolve));
  return {
    port: (tls.address() as AddressInfo).port,
    caPem: ca.certPem,
    seen,
    stop: async () => {
      const closed = new Promise<void>((resolve) => tls.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
