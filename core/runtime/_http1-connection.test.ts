import { afterAll, beforeAll, expect, test } from "bun:test";
import { Buffer } from "node:buffer";
import { EventEmitter } from "node:events";
import { connect as connectTls, type TLSSocket } from "node:tls";
import { Http1Connection } from "./_http1-connection.ts";
import type { Http1Request } from "./_http1-exchange.ts";
import { createCertificateAuthority, issueServingCertificate } from "../server/certificates.ts";
import { completeResponse } from "./fetch-adapter.ts";
import { pushStream } from "./push-stream.ts";
import { type ConnectionHandler, type HttpsListener, listenHttps } from "./listener.ts";

let caPem: string;
let listener: HttpsListener;
let currentHandler: ConnectionHandler;

beforeAll(async () => {
  const ca = await createCertificateAuthority("test-ca", { days: 1 });
  caPem = ca.certPem;
  const serving = await issueServingCertificate(ca, { commonName: "server", hosts: ["127.0.0.1"], days: 1 });
  listener = await listenHttps((request, conn) => currentHandler(request, conn), {
    host: "127.0.0.1",
    port: 0,
    key: serving.keyPem,
    cert: serving.certPem,
    clientCA: caPem,
  });
});

afterAll(() => listener.close());

function openTls(): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = connectTls({ host: "127.0.0.1", port: listener.port, ca: caPem, ALPNProtocols: ["http/1.1"] }, () => resolve(socket));
    socket.once("error", reject);
  });
}

/** Everything the server sent until it closed the connection, as latin1 text. */
function untilClosed(socket: TLSSocket): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
    socket.on("error", () => {});
    socket.on("close", () => resolve(text));
  });
}

async function exchange(...writes: string[]): Promise<string> {
  const socket = await openTls();
  const answer = untilClosed(socket);
  for (const bytes of writes) socket.write(bytes);
  return answer;
}

const echoBody: ConnectionHandler = async (request) => completeResponse(`${request.method} ${await request.text()}`);
const ERROR_HEADERS = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n";

test("conn.serve: another HTTP version answers 505, another transfer coding 501, another expectation 417, each ending the connection", async () => {
  currentHandler = echoBody;
  const unsupported = "505 HTTP Version Not Supported: unsupported protocol version";
  expect(await exchange("GET / HTTP/2.0\r\nHost: x\r\n\r\n")).toBe(`HTTP/1.1 ${unsupported}${ERROR_HEADERS}${unsupported}`);
  expect(await exchange("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n")).toBe(
    `HTTP/1.1 501 Not Implemented${ERROR_HEADERS}Unsupported transfer encoding`,
  );
  expect(await exchange("POST / HTTP/1.1\r\nHost: x\r\nExpect: something\r\nContent-Length: 1\r\n\r\nx")).toMatch(
    /^HTTP\/1\.1 417 Expectation Failed\r\nConnection: close\r\nDate: [^\r]+\r\nContent-Length: 0\r\n\r\n$/,
  );
});

test("chunkedReader: a chunked body reaches the handler whole, trailers dropped, and the connection serves on", async () => {
  currentHandler = echoBody;
  const answer = await exchange(
    "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3;ext\r\nabc\r\n",
    "2\r\nde\r\n0\r\nX-Trailer: t\r\n\r\n",
    "GET /b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
  );
  const [first, second] = answer.split(/(?=HTTP\/1\.1 )/);
  expect(first).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*\r\n\r\nPOST abcde$/);
  expect(second).toContain("\r\nconnection: close\r\n");
  expect(second).toEndWith("\r\n\r\nGET ");
});

test("chunkedReader: a malformed chunk errors the handler's read of the body, and its answer ends the connection", async () => {
  currentHandler = async (request) => {
    const failure = await request.text().then(() => "read", (error: Error) => error.message);
    return completeResponse(failure, { status: 400 });
  };
  const answer = await exchange("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcXX\r\nGET / HTTP/1.1\r\n\r\n");
  expect(answer).toStartWith("HTTP/1.1 400 Bad Request\r\n");
  expect(answer).toContain("\r\nconnection: close\r\n");
  // chunkedReader's own error reaches the handler, as Go's body read returns it.
  expect(answer).toEndWith("\r\n\r\nmalformed chunked encoding");
});

test("HEAD: the answer has the GET's fields and no body, and the connection serves on (chunkWriter.writeHeader)", async () => {
  currentHandler = (request) => completeResponse(`body of ${request.method}`, { headers: { "content-type": "text/plain" } });
  const answer = await exchange("HEAD / HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  const [headAnswer, getAnswer] = answer.split(/(?=HTTP\/1\.1 )/);
  expect(headAnswer).toMatch(/^HTTP\/1\.1 200 OK\r\ncontent-type: text\/plain\r\ncontent-length: 12\r\nDate: [^\r]+\r\n\r\n$/);
  expect(getAnswer).toEndWith("\r\n\r\nbody of GET");
});

test("conn.serve: pipelined requests are read one at a time, in order, and none after one asking to close", async () => {
  const order: string[] = [];
  let releaseFirst!: () => void;
  const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
  currentHandler = async (request) => {
    const path = new URL(request.url).pathname;
    order.push(`start ${path}`);
    if (path === "/1") await firstHeld;
    order.push(`end ${path}`);
    return completeResponse(path);
  };
  const socket = await openTls();
  const answer = untilClosed(socket);
  socket.write(
    "GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /3 HTTP/1.1\r\nHost: x\r\n\r\n",
  );
  await Bun.sleep(50);
  expect(order).toEqual(["start /1"]);
  releaseFirst();
  const text = await answer;
  expect(order).toEqual(["start /1", "end /1", "start /2", "end /2"]);
  expect(text.match(/HTTP\/1\.1 200 OK/g)).toHaveLength(2);
  expect(text).toEndWith("/2");
});

test("expectContinueReader: 100 Continue goes out when the handler first reads the body, not before", async () => {
  let read!: () => void;
  const mayRead = new Promise<void>((resolve) => (read = resolve));
  currentHandler = async (request) => {
    await mayRead;
    return completeResponse(await request.text());
  };
  const socket = await openTls();
  const answer = untilClosed(socket);
  let early = "";
  socket.on("data", (chunk: Buffer) => (early += chunk.toString("latin1")));
  socket.write("PUT / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\nConnection: close\r\n\r\n");
  await Bun.sleep(50);
  expect(early).toBe("");
  read();
  while (!early.includes("100 Continue")) await Bun.sleep(5);
  expect(early).toBe("HTTP/1.1 100 Continue\r\n\r\n");
  socket.write("hello");
  expect(await answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK\r\n[^]*\r\n\r\nhello$/);
});

test("HTTP/1.0: the status line says HTTP/1.0, and an answer of unknown length is written as it comes and ends the connection", async () => {
  currentHandler = () =>
    new Response(
      new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode("one "));
          await Bun.sleep(20);
          controller.enqueue(new TextEncoder().encode("two"));
          controller.close();
        },
      }),
    );
  const answer = await exchange("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
  expect(answer).toStartWith("HTTP/1.0 200 OK\r\n");
  expect(answer).not.toMatch(/transfer-encoding|content-length|\r\nconnection:/i);
  expect(answer).toEndWith("\r\n\r\none two");
});

test("a streamed answer goes out in chunks; the client going away aborts the request's signal and runs onResponseDone", async () => {
  let aborted!: () => void;
  const abortSeen = new Promise<void>((resolve) => (aborted = resolve));
  let done!: () => void;
  const doneSeen = new Promise<void>((resolve) => (done = resolve));
  currentHandler = (request, conn) => {
    request.signal.addEventListener("abort", () => aborted());
    conn.onResponseDone?.(done);
    return new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("event"));
        },
      }),
    );
  };
  const socket = await openTls();
  let text = "";
  socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
  socket.write("GET /watch HTTP/1.1\r\nHost: x\r\n\r\n");
  while (!text.includes("\r\n5\r\nevent\r\n")) await Bun.sleep(5);
  expect(text).toContain("\r\ntransfer-encoding: chunked\r\n");
  socket.destroy();
  await Promise.all([abortSeen, doneSeen]);
});

test("conn.readRequest: up to 4 CR or LF after a POST's body are skipped (RFC 7230 section 3's tolerance), not after a GET", async () => {
  currentHandler = echoBody;
  const afterPost = await exchange(
    "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc\r\n",
    "GET /b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
  );
  const [first, second] = afterPost.split(/(?=HTTP\/1\.1 )/);
  expect(first).toEndWith("\r\n\r\nPOST abc");
  expect(second).toStartWith("HTTP/1.1 200 OK\r\n");
  expect(second).toEndWith("\r\n\r\nGET ");
  const afterGet = await exchange("GET /a HTTP/1.1\r\nHost: x\r\n\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n");
  expect(afterGet.split(/(?=HTTP\/1\.1 )/)[1]).toStartWith("HTTP/1.1 400 Bad Request");
});

/** Like exchange, the client then ending its side (shutdown(SHUT_WR) after a TLS close_notify). */
async function halfClosedExchange(...writes: string[]): Promise<string> {
  const socket = await openTls();
  const answer = untilClosed(socket);
  for (const bytes of writes) socket.write(bytes);
  socket.end();
  return answer;
}

test("connReader.handleReadError: a client that ends its side after its request gets its answer, its signal aborted, then the close", async () => {
  const abortedBeforeAnswer: boolean[] = [];
  currentHandler = async (request) => {
    for (let waits = 0; waits < 200 && !request.signal.aborted; waits++) await Bun.sleep(5);
    abortedBeforeAnswer.push(request.signal.aborted);
    return completeResponse(`answer to ${new URL(request.url).pathname}`);
  };
  const answer = await halfClosedExchange("GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n");
  const [first, second] = answer.split(/(?=HTTP\/1\.1 )/);
  // Go serves what was read before the EOF, says nothing of the close in the heads, and closes after the last answer.
  expect(first).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*\r\n\r\nanswer to \/a$/);
  expect(second).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*\r\n\r\nanswer to \/b$/);
  expect(answer).not.toMatch(/connection:/i);
  expect(abortedBeforeAnswer).toEqual([true, true]);
});

test("connReader.handleReadError: a streamed answer ends with its last chunk when the client ends its side, and the connection closes", async () => {
  let cancelled = false;
  currentHandler = () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("event"));
        },
        cancel: () => void (cancelled = true),
      }),
    );
  const socket = await openTls();
  const answer = untilClosed(socket);
  let text = "";
  socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
  socket.write("GET /watch HTTP/1.1\r\nHost: x\r\n\r\n");
  while (!text.includes("\r\n5\r\nevent\r\n")) await Bun.sleep(5);
  socket.end();
  expect(await answer).toEndWith("\r\n5\r\nevent\r\n0\r\n\r\n");
  expect(cancelled).toBe(true);
});

test("conn.serve at the client's EOF: part of a head is answered 400, a body cut short errors its read and its answer is still written", async () => {
  currentHandler = echoBody;
  expect(await halfClosedExchange("GET / HTTP/1.1\r\nHost: x")).toBe(`HTTP/1.1 400 Bad Request${ERROR_HEADERS}400 Bad Request`);
  expect(await halfClosedExchange("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\nx\r\n")).toEndWith("\r\n\r\nPOST x");
  currentHandler = async (request) => completeResponse(await request.text().then(() => "read", (error: Error) => error.message));
  const cutShort = await halfClosedExchange("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc");
  expect(cutShort).toStartWith("HTTP/1.1 200 OK\r\n");
  expect(cutShort).toContain("\r\nconnection: close\r\n");
  expect(cutShort).toEndWith("\r\n\r\nunexpected EOF");
});

test("serverHandler.ServeHTTP: OPTIONS * is globalOptionsHandler's 200 with Content-Length: 0, the handler never called", async () => {
  let called = false;
  currentHandler = () => {
    called = true;
    return completeResponse("handler");
  };
  const answer = await exchange("OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\nOPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  const [first, second] = answer.split(/(?=HTTP\/1\.1 )/);
  expect(first).toMatch(/^HTTP\/1\.1 200 OK\r\ncontent-length: 0\r\nDate: [^\r]+\r\n\r\n$/);
  expect(second).toMatch(/^HTTP\/1\.1 200 OK\r\ncontent-length: 0\r\nDate: [^\r]+\r\nconnection: close\r\n\r\n$/);
  expect(called).toBe(false);
});

test("readRequest's url.ParseRequestURI: a malformed request-target is conn.serve's plain 400 and the end, the handler never called", async () => {
  let called = false;
  currentHandler = () => {
    called = true;
    return completeResponse("handler");
  };
  expect(await exchange("GET /a%zz HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n")).toBe(
    `HTTP/1.1 400 Bad Request${ERROR_HEADERS}400 Bad Request`,
  );
  expect(called).toBe(false);
});

/** A stand-in for the TLS socket with what Http1Connection calls on it; nothing is answered in these tests. */
class FakeSocket extends EventEmitter {
  allowHalfOpen = false;
  destroyed = false;
  setNoDelay(): void {}
  pause(): void {}
  resume(): void {}
}

/** What the handler of one connection is handed of its request's body, fed `reads` one socket read at a time. */
function bodyHandedOver(...reads: string[]): { complete: string | undefined; streamed: string } {
  const socket = new FakeSocket();
  const seen = { complete: undefined as string | undefined, streamed: "" };
  new Http1Connection(socket as unknown as TLSSocket, (incoming) => {
    const request = incoming as unknown as Http1Request;
    seen.complete = request.completeBody?.toString("latin1");
    request.on("data", (part: Buffer) => (seen.streamed += `[${part.toString("latin1")}]`));
    request.on("end", () => (seen.streamed += "<end>"));
  }, 8192);
  for (const bytes of reads) socket.emit("data", Buffer.from(bytes, "latin1"));
  return seen;
}

test("a declared body that came whole with its head is handed over as bytes, no data events; one that comes later is streamed", () => {
  const head = "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n";
  expect(bodyHandedOver(`${head}\r\nhello`)).toEqual({ complete: "hello", streamed: "<end>" });
  expect(bodyHandedOver(`${head}\r\nhello\r\nGET /next HTTP/1.1\r\n`)).toEqual({ complete: "hello", streamed: "<end>" });
  expect(bodyHandedOver(`${head}\r\nhel`, "lo")).toEqual({ complete: undefined, streamed: "[hel][lo]<end>" });
  // A client waiting for 100 Continue sends its body after the handler's first read: it is always streamed.
  expect(bodyHandedOver(`${head}Expect: 100-continue\r\n\r\nhello`)).toEqual({ complete: undefined, streamed: "[hello]<end>" });
  const chunked = "POST /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n";
  expect(bodyHandedOver(chunked)).toEqual({ complete: undefined, streamed: "[hello]<end>" });
});

test("an answer made after its connection closed: a push body's source is cancelled, never started (no watch left behind)", async () => {
  let cancelled!: () => void;
  const cancelledSeen = new Promise<void>((resolve) => (cancelled = resolve));
  let started = false;
  currentHandler = async (request) => {
    // The handler answers only once the client has gone: its request waited for its wave, or for something else.
    await new Promise((resolve) => request.signal.addEventListener("abort", resolve));
    await Bun.sleep(20);
    return new Response(pushStream({ start: () => void (started = true), cancel: () => cancelled() }));
  };
  const socket = await openTls();
  socket.write("GET /watch HTTP/1.1\r\nHost: x\r\n\r\n");
  await Bun.sleep(20);
  socket.destroy();
  await cancelledSeen;
  expect(started).toBe(false);
});

test("an answer made after its client ended its side: a streamed body is cancelled and the answer ends at once", async () => {
  let cancelled = false;
  currentHandler = async (request) => {
    // The client's end came with its request: the signal may be aborted before the handler first reads it.
    if (!request.signal.aborted) await new Promise((resolve) => request.signal.addEventListener("abort", resolve));
    // Not a push body: the adapter's own stream writer (as when a filter such as audit wraps a watch's body).
    return new Response(new ReadableStream<Uint8Array>({ cancel: () => void (cancelled = true) }));
  };
  const socket = await openTls();
  const answer = untilClosed(socket);
  socket.end("GET /watch HTTP/1.1\r\nHost: x\r\n\r\n");
  const text = await answer;
  // What the body held when it ended is the answer, written whole, then the connection closes.
  expect(text).toStartWith("HTTP/1.1 200 OK\r\ncontent-length: 0\r\n");
  expect(text).toEndWith("\r\n\r\n");
  expect(cancelled).toBe(true);
});
