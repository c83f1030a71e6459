/** The node-request ↔ fetch adapter on a plain node:http server (the listener adds TLS around the same calls). */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { EventEmitter } from "node:events";
import type { TLSSocket } from "node:tls";
import { Http1Request } from "./_http1-exchange.ts";
import {
  BadRequestTarget,
  completeBodyOf,
  completeResponse,
  type NodeResponse,
  requestBytes,
  responseHeaders,
  toRequest,
  writeResponse,
} from "./fetch-adapter.ts";

let server: Server;
let port: number;
let handler: (request: Request) => Promise<Response>;

beforeAll(async () => {
  server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    let request: Request;
    try {
      request = toRequest(incoming, outgoing);
    } catch (error) {
      outgoing.writeHead(400).end(error instanceof BadRequestTarget ? error.message : "other");
      return;
    }
    void handler(request).then((response) => writeResponse(response, outgoing, false, incoming.socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => server.close());

/** Sends raw bytes on a fresh connection and returns everything the server wrote before closing it. */
function raw(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(text));
    let answer = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => (answer += chunk));
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
  });
}

test("a complete answer is sent with its Content-Length, not chunked, and repeated headers stay separate", async () => {
  handler = async () => {
    const headers = new Headers({ "Content-Type": "application/json" });
    headers.append("Set-Cookie", "a=1");
    headers.append("Set-Cookie", "b=2");
    return new Response('{"kind":"Status"}', { status: 201, headers });
  };
  const answer = await raw("GET /x HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n");
  expect(answer).toStartWith("HTTP/1.1 201 ");
  expect(answer.toLowerCase()).toContain("content-length: 17\r\n");
  expect(answer.toLowerCase()).not.toContain("transfer-encoding");
  expect(answer.match(/set-cookie: /gi)?.length).toBe(2);
  expect(answer).toEndWith('\r\n\r\n{"kind":"Status"}');
});

test("a complete response is written from the bytes it was made with, its body stream never read, headers set later included", async () => {
  let made!: Response;
  handler = async () => {
    made = completeResponse('{"name":"é"}', { status: 200, headers: { "Content-Type": "application/json" } });
    made.headers.set("Audit-Id", "a1");
    return made;
  };
  const answer = await raw("GET /x HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n");
  expect(answer.toLowerCase()).toContain("content-length: 13\r\n");
  expect(answer.toLowerCase()).toContain("audit-id: a1\r\n");
  expect(answer).toEndWith('\r\n\r\n{"name":"é"}'.replace("é", "\xc3\xa9"));
  expect(made.bodyUsed).toBe(false);

  // A copy (what a filter adding headers to an immutable answer makes) is read through its stream like any Response.
  let copy!: Response;
  handler = async () => (copy = new Response(completeResponse("copied").body, { status: 203 }));
  expect(await raw("GET /x HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")).toEndWith("\r\n\r\ncopied");
  expect(copy.bodyUsed).toBe(true);
});

test("a request body larger than the stream's buffer arrives whole, in order", async () => {
  const body = Array.from({ length: 40_000 }, (_, i) => `line ${i}\n`).join("");
  handler = async (request) => new Response(`${request.method} ${(await request.text()) === body}`);
  const answer = await raw(`PUT /x HTTP/1.1\r\nHost: h\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
  expect(answer).toEndWith("\r\n\r\nPUT true");
});

test("headers and the URL come from the request as sent; a GET has no body", async () => {
  handler = async (request) =>
    Response.json({
      url: request.url,
      agent: request.headers.get("user-agent"),
      accept: request.headers.get("accept"),
      body: request.body,
    });
  const answer = await raw(
    "GET /api/v1/pods?limit=1 HTTP/1.1\r\nHost: example:6443\r\nUser-Agent: kubectl\r\nAccept: a\r\nConnection: close\r\n\r\n",
  );
  expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toEqual({
    url: "https://example:6443/api/v1/pods?limit=1",
    agent: "kubectl",
    accept: "a",
    body: null,
  });
});

test("a Host that could move the URL's path never reaches the handler; HTTP/1.1 without one neither (Go's readRequest)", async () => {
  let reached = 0;
  handler = async () => {
    reached++;
    return new Response("ok");
  };
  for (const host of ["Host: x/healthz?\r\n", "Host: a@b\r\n", "Host: a#b\r\n"]) {
    const answer = await raw(`GET /api HTTP/1.1\r\n${host}Connection: close\r\n\r\n`);
    expect(answer).toStartWith("HTTP/1.1 400 ");
    expect(answer).toContain("malformed Host header");
  }
  // The HTTP/1.x reader answers this one itself (Go's readRequest); either way it is a 400 and the handler never runs.
  expect(await raw("GET /api HTTP/1.1\r\nConnection: close\r\n\r\n")).toStartWith("HTTP/1.1 400 ");
  expect(reached).toBe(0);
});

test("an HTTP/1.0 request without Host and one with an empty Host are served, their path unchanged", async () => {
  handler = async (request) => new Response(new URL(request.url).pathname);
  expect(await raw("GET /api/v1 HTTP/1.0\r\n\r\n")).toEndWith("\r\n\r\n/api/v1");
  expect(await raw("GET /api/v1 HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n")).toEndWith("\r\n\r\n/api/v1");
});

test("ValidHostHeader: a Host no URL can hold (a:b:c, a port past 65535, [zz]) is served as Go serves it, path and query kept", async () => {
  handler = async (request) => new Response(new URL(request.url).pathname + new URL(request.url).search);
  for (const host of ["a:b:c", "a:99999999", "[zz]", ":"]) {
    expect(await raw(`GET /version?x=1 HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)).toEndWith("\r\n\r\n/version?x=1");
  }
});

test("a streamed answer whose first chunk is not ready sends its head at once, then each chunk", async () => {
  let release!: () => void;
  const later = new Promise<void>((resolve) => (release = resolve));
  handler = async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        async start(controller) {
          await later;
          controller.enqueue(new TextEncoder().encode("event\n"));
          controller.close();
        },
      }),
    );
  const socket = connect(port, "127.0.0.1", () => socket.write("GET /watch HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"));
  let answer = "";
  socket.setEncoding("latin1");
  const head = new Promise<void>((resolve) =>
    socket.on("data", (chunk: string) => {
      answer += chunk;
      if (answer.includes("\r\n\r\n")) resolve();
    })
  );
  await head;
  expect(answer.toLowerCase()).toContain("transfer-encoding: chunked");
  expect(answer).not.toContain("event");
  release();
  await new Promise((resolve) => socket.on("close", resolve));
  expect(answer).toContain("event\n");
});

/** Sends a request and goes away before its answer; the handler looks at the request once the response closed. */
async function leaveBeforeAnswer(look: (request: Request) => Promise<unknown>): Promise<unknown> {
  let gone!: () => void;
  const clientGone = new Promise<void>((resolve) => (gone = resolve));
  let seen: unknown;
  const looked = new Promise<void>((resolve) => {
    handler = async (request) => {
      const looking = look(request);
      await clientGone;
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen = await looking;
      resolve();
      return new Response("too late");
    };
  });
  const socket = connect(port, "127.0.0.1", () => socket.write("GET /slow HTTP/1.1\r\nHost: h\r\n\r\n"));
  await new Promise((resolve) => setTimeout(resolve, 50));
  socket.destroy();
  gone();
  await looked;
  return seen;
}

test("the request's signal, read before the client went away, aborts; so does a copy's", async () => {
  const seen = await leaveBeforeAnswer(async (request) => {
    const signal = request.signal;
    const copy = new Request(request, { headers: { "X-Copied": "1" } });
    await new Promise((resolve) => setTimeout(resolve, 120));
    return { signal: signal.aborted, copy: copy.signal.aborted };
  });
  expect(seen).toEqual({ signal: true, copy: true });
});

test("the request's signal, first read after the client went away, is made aborted", async () => {
  const seen = await leaveBeforeAnswer(async (request) => {
    await new Promise((resolve) => setTimeout(resolve, 120));
    return request.signal.aborted;
  });
  expect(seen).toBe(true);
});

test("the signal of a request answered in full never aborts", async () => {
  let request!: Request;
  handler = async (served) => {
    request = served;
    return new Response("ok");
  };
  expect(await raw("GET /x HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")).toEndWith("\r\n\r\nok");
  expect(request.signal.aborted).toBe(false);
});

test("responseHeaders: every field once, comma-joined when repeated, Set-Cookie and Warning (recorder.AddWarning's Header().Add) as lists, HTTP/1-only fields dropped on h2", () => {
  const headers = new Headers([["Content-Type", "text/plain"], ["Vary", "a"], ["Vary", "b"], ["Connection", "close"]]);
  headers.append("Warning", '299 - "x, y"');
  headers.append("Warning", '299 - "z"');
  headers.append("Set-Cookie", "a=1");
  headers.append("Set-Cookie", "b=2");
  const http1 = {
    "content-type": "text/plain",
    vary: "a, b",
    warning: ['299 - "x, y"', '299 - "z"'],
    connection: "close",
    "set-cookie": ["a=1", "b=2"],
  };
  // node's OutgoingHttpHeaders types Warning as one string, though writeHead sends a list as repeated fields.
  expect(responseHeaders(headers, false) as Record<string, unknown>).toEqual(http1);
  const { connection: _, ...http2 } = http1;
  expect(responseHeaders(headers, true) as Record<string, unknown>).toEqual(http2);
  expect(responseHeaders(new Headers({ "Keep-Alive": "timeout=5", "Transfer-Encoding": "chunked" }), true)).toEqual({});
  expect(responseHeaders(new Headers({ "Set-Cookie": "only=1" }), false)).toEqual({ "set-cookie": ["only=1"] });
});

test("completeBodyOf: the body a complete response was made with, until someone reads it; nothing for any other response", async () => {
  const bytes = new Uint8Array([1, 2, 3]);
  expect(completeBodyOf(completeResponse("ok"))).toBe("ok");
  expect(completeBodyOf(completeResponse(bytes))).toBe(bytes);
  expect(completeBodyOf(new Response("ok"))).toBeUndefined();
  const read = completeResponse("ok");
  await read.text();
  expect(completeBodyOf(read)).toBeUndefined();
});

/** The Request of a POST read by kubun's HTTP/1.x layer, its body "hello" whole with its head or not. */
function http1Post(whole: boolean): Request {
  const headers = { host: "x", "content-length": "5" };
  const head = { method: "POST", target: "/x", versionMinor: 1, rawHeaders: ["Host", "x", "Content-Length", "5"], headers, body: 5 };
  const flow = { pauseBody() {}, resumeBody() {} };
  const incoming = new Http1Request(head, new EventEmitter() as unknown as TLSSocket, flow);
  if (whole) incoming.completeBody = Buffer.from("hello");
  else queueMicrotask(() => (incoming.emit("data", Buffer.from("hello")), incoming.emit("end")));
  return toRequest(incoming as unknown as IncomingMessage, new EventEmitter() as unknown as NodeResponse);
}

test("requestBytes: a body that came whole with its head is in hand at once, once the Request's is read it is read from it", async () => {
  const whole = requestBytes(http1Post(true));
  expect(whole).toBeInstanceOf(Uint8Array);
  expect(Buffer.from(whole as Uint8Array).toString()).toBe("hello");
  const streamed = requestBytes(http1Post(false));
  expect(streamed).toBeInstanceOf(Promise);
  expect(Buffer.from(await streamed).toString()).toBe("hello");
  const read = http1Post(true);
  expect(await read.text()).toBe("hello");
  const afterRead = requestBytes(read);
  expect(afterRead).toBeInstanceOf(Promise);
  expect(await Promise.resolve(afterRead).catch(() => "refused")).toBe("refused");
});
