/** Small JSON helpers over the harness's HTTPS client, shared by the HTTP end-to-end tests. */
import { expect } from "bun:test";
import type { TestServer } from "./harness.ts";
import { WatchStream } from "./_watch-stream.ts";

// deno-lint-ignore no-explicit-any
export type Json = any;

const JSON_HEADERS = { "Content-Type": "application/json", Accept: "application/json" };

export async function sendJson(server: TestServer, method: string, path: string, body?: unknown, contentType = "application/json"): Promise<{ status: number; body: Json; headers: Headers }> {
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
  expect({ path, status: answer.status, body: answer.status === 200 ? undefined : answer.body }).toEqual({ path, status: 200, body: undefined });
  return answer.body;
}

/** Asserts a kube `Status` failure body with this code and reason (and message when given). */
export function expectStatus(answer: { status: number; body: Json }, code: number, reason: string, message?: string | RegExp): void {
  expect(answer.status).toBe(code);
  expect(answer.body).toMatchObject({ kind: "Status", apiVersion: "v1", status: "Failure", code, reason });
  if (typeof message === "string") expect(answer.body.message).toBe(message);
  else if (message) expect(answer.body.message).toMatch(message);
}

export async function createNamespace(server: TestServer, name: string): Promise<void> {
  const answer = await sendJson(server, "POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name } });
  expect(answer.status).toBe(201);
}

export function configMap(namespace: string, name: string, extra: { labels?: Record<string, string>; data?: Record<string, string>; finalizers?: string[] } = {}): Json {
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name, namespace, ...(extra.labels ? { labels: extra.labels } : {}), ...(extra.finalizers ? { finalizers: extra.finalizers } : {}) },
    data: extra.data ?? { key: "value" },
  };
}

/** Creates a ConfigMap that must answer 201; returns the created object. */
export async function createConfigMap(server: TestServer, namespace: string, name: string, extra: Parameters<typeof configMap>[2] = {}): Promise<Json> {
  const answer = await sendJson(server, "POST", `/api/v1/namespaces/${namespace}/configmaps`, configMap(namespace, name, extra));
  expect({ name, status: answer.status }).toEqual({ name, status: 201 });
  return answer.body;
}

export async function openWatch(server: TestServer, path: string): Promise<WatchStream> {
  const response = await server.request("GET", path, { headers: { Accept: "application/json" } });
  expect({ path, status: response.status }).toEqual({ path, status: 200 });
  return new WatchStream(response);
}

/** The collection's resourceVersion and item names: what "the write changed nothing" compares. */
export async function collectionState(server: TestServer, path: string): Promise<{ resourceVersion: string; items: string[] }> {
  const list = await getJson(server, path);
  return { resourceVersion: list.metadata.resourceVersion, items: list.items.map((item: Json) => `${item.metadata.name}@${item.metadata.resourceVersion}`) };
}
