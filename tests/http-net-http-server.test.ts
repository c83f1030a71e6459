/**
 * What Go's net/http server does before, around and after kube's handlers, seen on the wire: serverHandler.ServeHTTP's
 * "OPTIONS *", readRequest's refusal of a malformed request-target, body.readTrailer's checks, parseContentLength's
 * 63-bit lengths, and the Content-Length chunkWriter.writeHeader gives a HEAD.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createConfigMap, createNamespace } from "./_api.ts";
import { rawExchange } from "./_raw-request.ts";
import { startServer, type TestServer } from "./harness.ts";

const NAMESPACE = "net-http";
const COLLECTION = `/api/v1/namespaces/${NAMESPACE}/configmaps`;
const MAX_REQUEST_BYTES = 65536;
const PLAIN_400 = "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request";
// Under Deno the server reads HTTP/1.x with Deno's node:http, not kubun's own reader (core/runtime/_http1-*.ts, Bun
// only). The tests skipped there pin Go's framing, which that reader reproduces and node:http does not (each fails
// under Deno).
const UNDER_DENO = process.env.KUBUN_TEST_RUNTIME === "deno";

let server: TestServer;
let host: string;

beforeAll(async () => {
  server = await startServer(["--max-request-bytes", String(MAX_REQUEST_BYTES)]);
  host = new URL(server.url).host;
  await createNamespace(server, NAMESPACE);
});
afterAll(async () => {
  await server?.stop();
});

async function exchange(request: string): Promise<string> {
  return (await rawExchange(server, request)).toString("latin1");
}

/** The head's fields of the first answer in `reply`, names lower-cased. */
function fieldsOf(reply: string): Map<string, string> {
  const lines = reply.slice(0, reply.indexOf("\r\n\r\n")).split("\r\n").slice(1);
  return new Map(lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
}

test.skipIf(UNDER_DENO)(
  "serverHandler.ServeHTTP: OPTIONS * is globalOptionsHandler's 200 with Content-Length: 0, and the connection serves on",
  async () => {
    const reply = await exchange(
      `OPTIONS * HTTP/1.1\r\nHost: ${host}\r\n\r\nGET /healthz HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
    );
    const [options, health] = reply.split(/(?=HTTP\/1\.1 )/);
    expect(options).toMatch(/^HTTP\/1\.1 200 OK\r\ncontent-length: 0\r\nDate: [^\r]+\r\n\r\n$/);
    expect(health).toEndWith("\r\n\r\nok");
  },
);

test.skipIf(UNDER_DENO)(
  "readRequest's url.ParseRequestURI: a malformed request-target is conn.serve's plain 400, byte for byte, and the end",
  async () => {
    for (const target of ["/api/v1/%zz", "api/v1/namespaces", "http://host:port/api", "http://[::1/api"]) {
      const reply = await exchange(`GET ${target} HTTP/1.1\r\nHost: ${host}\r\n\r\nGET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
      expect([target, reply]).toEqual([target, PLAIN_400]);
    }
  },
);

function chunkedCreate(name: string, trailer: string): string {
  const body = JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name } });
  const head = `POST ${COLLECTION} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAccept: application/json\r\n`;
  return `${head}Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n${trailer}\r\n`;
}

test.skipIf(UNDER_DENO)(
  "body.readTrailer: a well-formed trailer is read and dropped; a malformed one fails the body's read and creates nothing",
  async () => {
    expect(await exchange(chunkedCreate("trailer-ok", "X-Checksum: abc\r\n"))).toStartWith("HTTP/1.1 201 Created\r\n");
    const refused = await exchange(chunkedCreate("trailer-bad", "Bad Name: v\r\n"));
    expect(refused).not.toStartWith("HTTP/1.1 201");
    expect(refused).toContain("malformed MIME header line: Bad Name: v");
    const listed = await exchange(
      `GET ${COLLECTION}/trailer-bad HTTP/1.1\r\nHost: ${host}\r\nAccept: application/json\r\nConnection: close\r\n\r\n`,
    );
    expect(listed).toStartWith("HTTP/1.1 404 Not Found\r\n");
  },
);

test.skipIf(UNDER_DENO)(
  "parseContentLength reads 63 bits: a declared length past 2^53 is the body limit's 413 once the limit is read past, not a 400",
  async () => {
    const body = "x".repeat(MAX_REQUEST_BYTES + 1);
    const head = `POST ${COLLECTION} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAccept: application/json\r\n`;
    const reply = await exchange(`${head}Content-Length: 9007199254740993\r\n\r\n${body}`);
    expect(reply).toStartWith("HTTP/1.1 413 ");
    expect(reply).toContain(`"reason":"RequestEntityTooLarge"`);
    const past63Bits = await exchange(`${head}Content-Length: 9223372036854775808\r\n\r\n`);
    expect(past63Bits).toBe(PLAIN_400);
  },
);

test.skipIf(UNDER_DENO)(
  "chunkWriter.writeHeader: a HEAD has its GET's Content-Length when that body fit Go's 2048-byte buffer, and neither length nor chunks past it",
  async () => {
    const head = (path: string) =>
      exchange(`HEAD ${path} HTTP/1.1\r\nHost: ${host}\r\nAccept: application/json\r\nConnection: close\r\n\r\n`);
    const get = (path: string) =>
      exchange(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nAccept: application/json\r\nConnection: close\r\n\r\n`);
    expect(fieldsOf(await head("/healthz")).get("content-length")).toBe("2");
    await createConfigMap(server, NAMESPACE, "small");
    const small = await get(`${COLLECTION}/small`);
    const smallLength = small.length - small.indexOf("\r\n\r\n") - 4;
    expect(smallLength).toBeLessThanOrEqual(2048);
    expect(fieldsOf(await head(`${COLLECTION}/small`)).get("content-length")).toBe(String(smallLength));
    for (let i = 0; i < 10; i++) await createConfigMap(server, NAMESPACE, `filler-${i}`);
    const listHead = fieldsOf(await head(COLLECTION));
    expect([listHead.get("content-length"), listHead.get("transfer-encoding")]).toEqual([undefined, undefined]);
  },
);
