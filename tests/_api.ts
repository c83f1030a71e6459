/** Small JSON helpers over the harness's HTTPS client, shared by the HTTP end-to-end tests. */
import { expect } from "bun:test";
import type { TestServer } from "./harness.ts";
import { WatchStream } from "./watch-stream.ts";

// deno-lint-ignore no-explicit-any
export type Json = any;

const JSON_HEADERS = { "Content-Type": "application/json", Accept: "application/json" };

export async function sendJson(
  server: TestServer,
  method: string,
  path: string,
  body?: unknown,
  contentType = "application/json",
): Promise<{ status: number; body: Json; headers: Headers }> {
  const response = await server.request(method, path, {
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: { ...JSON_HEADERS, "Content-Type": contentType },
  });
  const text = await response.text();
  return { status: response.status, body: text === "" ? undefined : parseOrText(text), headers: response.headers };
}

function parseOrText(text: string): Json {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** GET that must answer 200; returns the parsed body. */
export async function getJson(server: TestServer, path: string): Promise<Json> {
  const answer = await sendJson(server, "GET", path);
  expect({ path, status: answer.status, body: answer.status === 200 ? undefined : answer.body }).toEqual({
    path,
    status: 200,
    body: undefined,
  });
  return answer.body;
}

/** kube's Warning header values: `299 - "text"`, one per warning, unquoted. */
export function warningsOf(headers: Headers): string[] {
  const header = headers.get("warning");
  if (!header) return [];
  return [...header.matchAll(/299 - "((?:[^"\\]|\\.)*)"/g)].map((m) => m[1].replace(/\\(.)/g, "$1"));
}

/** Asserts a kube `Status` failure body with this code and reason (and message when given). */
export function expectStatus(answer: { status: number; body: Json }, code: number, reason: string, message?: string | RegExp): void {
  expect(answer.status).toBe(code);
  expect(answer.body).toMatchObject({ kind: "Status", apiVersion: "v1", status: "Failure", code, reason });
  if (typeof message === "string") expect(answer.body.message).toBe(message);
  else if (message) expect(answer.body.message).toMatch(message);
}

/** The ConfigMap the root-CA publisher puts into every namespace, as kube-controller-manager does. */
export const ROOT_CA_CONFIGMAP = "kube-root-ca.crt";

/** Creates a namespace and waits until the controllers have published its root CA ConfigMap, so later lists are stable. */
export async function createNamespace(server: TestServer, name: string): Promise<void> {
  const answer = await sendJson(server, "POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name } });
  expect(answer.status).toBe(201);
  for (let i = 0; i < 100; i++) {
    if ((await server.request("GET", `/api/v1/namespaces/${name}/configmaps/${ROOT_CA_CONFIGMAP}`)).status === 200) return;
    await Bun.sleep(50);
  }
  throw new Error(`the ${ROOT_CA_CONFIGMAP} ConfigMap never appeared in namespace ${name}`);
}

/** Item names of a list, without the ConfigMap controllers add to every namespace. */
export function ownNames(list: Json): string[] {
  return list.items.map((item: Json) => item.metadata.name).filter((name: string) => name !== ROOT_CA_CONFIGMAP);
}

export function configMap(
  namespace: string,
  name: string,
  extra: { labels?: Record<string, string>; data?: Record<string, string>; finalizers?: string[] } = {},
): Json {
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: {
      name,
      namespace,
      ...(extra.labels ? { labels: extra.labels } : {}),
      ...(extra.finalizers ? { finalizers: extra.finalizers } : {}),
    },
    data: extra.data ?? { key: "value" },
  };
}

/** Creates a ConfigMap that must answer 201; returns the created object. */
export async function createConfigMap(
  server: TestServer,
  namespace: string,
  name: string,
  extra: Parameters<typeof configMap>[2] = {},
): Promise<Json> {
  const answer = await sendJson(server, "POST", `/api/v1/namespaces/${namespace}/configmaps`, configMap(namespace, name, extra));
  expect({ name, status: answer.status }).toEqual({ name, status: 201 });
  return answer.body;
}

export async function openWatch(server: TestServer, path: string): Promise<WatchStream> {
  const response = await server.request("GET", path, { headers: { Accept: "application/json" } });
  expect({ path, status: response.status }).toEqual({ path, status: 200 });
  return new WatchStream(response);
}

/**
 * The collection's items with their resourceVersions: what "the write changed nothing" compares. The list's own
 * resourceVersion is the store's global revision, which controllers' writes elsewhere move, so it is kept apart.
 */
export async function collectionState(server: TestServer, path: string): Promise<{ items: string[] }> {
  const list = await getJson(server, path);
  return { items: list.items.map((item: Json) => `${item.metadata.name}@${item.metadata.resourceVersion}`) };
}
