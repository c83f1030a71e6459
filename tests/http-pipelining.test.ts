/**
 * HTTP/1.1 pipelining: requests sent on one connection before the answers to those ahead of them are served one
 * after another, in the order sent. Go's net/http server (conn.serve) reads the next request ((*conn).readRequest)
 * only after the handler of the previous one returned and its answer was finished (w.finishRequest), and reads no
 * further after an answer that closes the connection (w.closeAfterReply).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createNamespace, getJson, type Json } from "./_api.ts";
import { rawExchange } from "./_raw-request.ts";
import { startServer, type TestServer } from "./harness.ts";

const NAMESPACE = "pipelining";
const COLLECTION = `/api/v1/namespaces/${NAMESPACE}/configmaps`;
// Under Deno the server reads HTTP/1.x with Deno's node:http, not kubun's own reader (core/runtime/_http1-*.ts, Bun
// only). The tests skipped there pin Go's framing, which that reader reproduces and node:http does not (each fails
// under Deno).
const UNDER_DENO = process.env.KUBUN_TEST_RUNTIME === "deno";

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NAMESPACE);
});
afterAll(async () => {
  await server?.stop();
});

/**
 * One request as it goes on the wire; `last` asks the server to close after answering it; `http10` sends it as
 * HTTP/1.0, which closes after the answer unless it asks `keepAlive`.
 */
function wire(method: string, path: string, options: { body?: Json; last?: boolean; http10?: boolean; keepAlive?: boolean } = {}): string {
  const { host } = new URL(server.url);
  const body = options.body === undefined ? "" : JSON.stringify(options.body);
  const fields = [`Host: ${host}`, "Accept: application/json"];
  if (body) fields.push("Content-Type: application/json", `Content-Length: ${Buffer.byteLength(body)}`);
  if (options.last) fields.push("Connection: close");
  if (options.keepAlive) fields.push("Connection: keep-alive");
  return `${method} ${path} HTTP/${options.http10 ? "1.0" : "1.1"}\r\n${fields.join("\r\n")}\r\n\r\n${body}`;
}

interface Answer {
  status: number;
  body: string;
  /** The Connection header, when the answer had one. */
  connection?: string;
}

/** Splits what the server sent on one connection into its answers (Content-Length or chunked bodies). */
function answers(reply: Buffer): Answer[] {
  const found: Answer[] = [];
  let at = 0;
  while (at < reply.length) {
    const headEnd = reply.indexOf("\r\n\r\n", at);
    if (headEnd < 0) throw new Error(`an answer without its whole head: ${reply.subarray(at).toString("latin1")}`);
    const [statusLine = "", ...lines] = reply.subarray(at, headEnd).toString("latin1").split("\r\n");
    const field = (name: string) => lines.find((line) => line.toLowerCase().startsWith(`${name}:`))?.slice(name.length + 1).trim();
    at = headEnd + 4;
    const parts: Buffer[] = [];
    if (field("transfer-encoding") === "chunked") {
      for (;;) {
        const sizeEnd = reply.indexOf("\r\n", at);
        const size = Number.parseInt(reply.subarray(at, sizeEnd).toString("latin1"), 16);
        if (sizeEnd < 0 || Number.isNaN(size)) throw new Error("a chunked body cut short");
        at = sizeEnd + 2 + size + 2;
        if (size === 0) break;
        parts.push(reply.subarray(sizeEnd + 2, sizeEnd + 2 + size));
      }
    } else if (field("content-length") === undefined && field("connection") === "close") {
      // Go's plain-text answers to a request it cannot read (conn.serve) have no length: they end with the connection.
      parts.push(reply.subarray(at));
      at = reply.length;
    } else {
      const length = Number(field("content-length") ?? 0);
      parts.push(reply.subarray(at, at + length));
      at += length;
    }
    const answer: Answer = { status: Number(statusLine.split(" ")[1]), body: Buffer.concat(parts).toString() };
    const connection = field("connection");
    if (connection !== undefined) answer.connection = connection.toLowerCase();
    found.push(answer);
  }
  return found;
}

/** Writes all the requests in one write, before any answer, and answers what came back until the server closed. */
async function pipeline(...requests: string[]): Promise<Answer[]> {
  return answers(await rawExchange(server, requests.join("")));
}

/** As pipeline, the client then ending its side of the connection (shutdown(SHUT_WR) after a TLS close_notify). */
async function pipelineThenHalfClose(...requests: string[]): Promise<Answer[]> {
  return answers(await rawExchange(server, requests.join(""), true));
}

const configMap = (name: string, data: Record<string, string> = {}) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name },
  data,
});

test("conn.serve reads the next request only after the previous answer: a pipelined GET finds the ConfigMap the POST before it created", async () => {
  const [created, got] = await pipeline(
    wire("POST", COLLECTION, { body: configMap("created-then-got") }),
    wire("GET", `${COLLECTION}/created-then-got`, { last: true }),
  );
  expect(created?.status).toBe(201);
  expect(got?.status).toBe(200);
  expect(JSON.parse(got!.body).metadata.uid).toBe(JSON.parse(created!.body).metadata.uid);
});

test("(*conn).readRequest in turn: pipelined create, update, delete and get take effect in the order sent", async () => {
  const path = `${COLLECTION}/in-order`;
  const replies = await pipeline(
    wire("POST", COLLECTION, { body: configMap("in-order", { step: "1" }) }),
    wire("PUT", path, { body: configMap("in-order", { step: "2" }) }),
    wire("GET", path),
    wire("DELETE", path),
    wire("GET", path, { last: true }),
  );
  expect(replies.map((reply) => reply.status)).toEqual([201, 200, 200, 200, 404]);
  expect(JSON.parse(replies[2]!.body).data).toEqual({ step: "2" });
});

test("conn.serve runs one handler at a time: a POST pipelined behind a watch is served after the watch ended, so the watch never sees it", async () => {
  const [watch, created] = await pipeline(
    wire("GET", `${COLLECTION}?watch=true&timeoutSeconds=1&fieldSelector=metadata.name%3Dbehind-watch`),
    wire("POST", COLLECTION, { body: configMap("behind-watch"), last: true }),
  );
  expect(watch?.status).toBe(200);
  expect(watch?.body).toBe("");
  expect(created?.status).toBe(201);
});

test("conn.serve stops after an answer with closeAfterReply: a request pipelined behind a Connection: close request is never served", async () => {
  const replies = await pipeline(
    wire("GET", COLLECTION, { last: true }),
    wire("POST", COLLECTION, { body: configMap("never-served") }),
  );
  expect(replies.map((reply) => reply.status)).toEqual([200]);
  const list = await getJson(server, COLLECTION);
  expect(list.items.map((item: Json) => item.metadata.name)).not.toContain("never-served");
});

test("conn.serve stops after an answer that closes the connection: a request pipelined behind a malformed Host's 400 is never served", async () => {
  const badHost = "GET /api HTTP/1.1\r\nHost: a/b\r\n\r\n";
  const replies = await pipeline(badHost, wire("POST", COLLECTION, { body: configMap("never-served-either") }));
  expect(replies).toEqual([{ status: 400, body: "400 Bad Request: malformed Host header", connection: "close" }]);
  const list = await getJson(server, COLLECTION);
  expect(list.items.map((item: Json) => item.metadata.name)).not.toContain("never-served-either");
});

test.skipIf(UNDER_DENO)(
  "(*chunkWriter).writeHeader keeps an HTTP/1.0 connection that asked wantsHttp10KeepAlive for answers with a Content-Length",
  async () => {
    const replies = await pipeline(
      wire("POST", COLLECTION, { body: configMap("http10-kept"), http10: true, keepAlive: true }),
      wire("GET", `${COLLECTION}/http10-missing`, { http10: true, keepAlive: true }),
      wire("GET", `${COLLECTION}/http10-kept`, { http10: true }),
      wire("GET", COLLECTION, { http10: true, keepAlive: true }),
    );
    expect(replies.map(({ status, connection }) => ({ status, connection }))).toEqual([
      { status: 201, connection: "keep-alive" },
      { status: 404, connection: "keep-alive" },
      // Go's chunkWriter.writeHeader says "Connection: close" on HTTP/1.1 only: an HTTP/1.0 answer closes unsaid.
      { status: 200, connection: undefined },
    ]);
    expect(JSON.parse(replies[2]!.body).metadata.name).toBe("http10-kept");
  },
);

// A client that sends its requests and then ends its side (`nc -N`, a script piping into a TLS client, a Node socket's
// end()) still gets its answers: Go's connReader.backgroundRead reads the EOF, handleReadError cancels the request's
// context, the handler's answer is written all the same, and conn.serve closes when its next readRequest meets the EOF.
test.skipIf(UNDER_DENO)(
  "connReader.handleReadError: requests sent before the client ended its side are all answered, then the connection closes",
  async () => {
    const [health, created] = await pipelineThenHalfClose(
      wire("GET", "/healthz"),
      wire("POST", COLLECTION, { body: configMap("sent-then-half-closed", { a: "1" }) }),
    );
    expect(health).toEqual({ status: 200, body: "ok" });
    expect(created?.status).toBe(201);
    expect(JSON.parse(created!.body).data).toEqual({ a: "1" });
  },
);

test.skipIf(UNDER_DENO)(
  "WatchServer.HandleHTTP returns when the request's context is cancelled: a watch whose client ended its side ends its chunked body",
  async () => {
    const [watch] = await pipelineThenHalfClose(
      wire("GET", `${COLLECTION}?watch=true&resourceVersion=0&fieldSelector=metadata.name%3Dsent-then-half-closed`),
    );
    expect(watch?.status).toBe(200);
    // The chunked body ended (the answer was read to its end). Go's HandleHTTP loop selects between the cancelled
    // context and the watch's events, so the initial event may or may not come before the end; kubun's handler runs
    // after the client's end was read (its request waits for its wave), so the body ends at once.
    for (const line of watch!.body.split("\n").filter(Boolean)) {
      expect(JSON.parse(line)).toMatchObject({ type: "ADDED", object: { metadata: { name: "sent-then-half-closed" } } });
    }
  },
);
