/**
 * A client that sends its requests and then ends its side of the connection (shutdown(SHUT_WR): `nc -N`, a script
 * piping into a TLS client, a Node socket's end()) still gets its answers. Go's net/http server reads the EOF in
 * connReader.backgroundRead, whose handleReadError cancels the request's context, and writes the handler's answer
 * all the same; conn.serve then closes the connection when its next readRequest meets the EOF.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createNamespace } from "./_api.ts";
import { rawExchange } from "./_raw-request.ts";
import { startServer, type TestServer } from "./harness.ts";

const NAMESPACE = "half-close";
const COLLECTION = `/api/v1/namespaces/${NAMESPACE}/configmaps`;
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NAMESPACE);
});
afterAll(async () => {
  await server?.stop();
});

function wire(method: string, path: string, body?: unknown): string {
  const { host } = new URL(server.url);
  const text = body === undefined ? "" : JSON.stringify(body);
  const fields = [`Host: ${host}`, "Accept: application/json"];
  if (text) fields.push("Content-Type: application/json", `Content-Length: ${Buffer.byteLength(text)}`);
  return `${method} ${path} HTTP/1.1\r\n${fields.join("\r\n")}\r\n\r\n${text}`;
}

test("connReader.handleReadError: requests sent before the client ended its side are all answered, then the connection closes", async () => {
  const configMap = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "sent-then-half-closed" }, data: { a: "1" } };
  const reply = (await rawExchange(server, wire("GET", "/healthz") + wire("POST", COLLECTION, configMap), true)).toString();
  const [health, created] = reply.split(/(?=HTTP\/1\.1 )/);
  expect(health).toStartWith("HTTP/1.1 200 OK\r\n");
  expect(health).toEndWith("\r\n\r\nok");
  expect(created).toStartWith("HTTP/1.1 201 Created\r\n");
  expect(JSON.parse(created!.slice(created!.indexOf("\r\n\r\n") + 4)).data).toEqual({ a: "1" });
});

test("WatchServer.HandleHTTP returns when the request's context is cancelled: a watch whose client ended its side ends its chunked body", async () => {
  const reply = (await rawExchange(server, wire("GET", `${COLLECTION}?watch=true&resourceVersion=0`), true)).toString();
  expect(reply).toStartWith("HTTP/1.1 200 OK\r\n");
  expect(reply).toMatch(/\r\ntransfer-encoding: chunked\r\n/i);
  expect(reply).toEndWith("0\r\n\r\n");
});
