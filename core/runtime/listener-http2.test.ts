/** The listener over HTTP/2 (ALPN h2, as client-go and kubectl negotiate it) and its answers to unroutable requests. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type ClientHttp2Session, connect as http2Connect } from "node:http2";
import { connect as tlsConnect } from "node:tls";
import {
  createCertificateAuthority,
  issueClientCertificate,
  type IssuedCertificate,
  issueServingCertificate,
} from "../server/certificates.ts";
import { completeResponse, headAnswer } from "./fetch-adapter.ts";
import { type ConnectionHandler, type HttpsListener, listenHttps } from "./listener.ts";

const IS_DENO = "Deno" in globalThis;
let caPem: string;
let client: IssuedCertificate;
let listener: HttpsListener;
let handler: ConnectionHandler;

beforeAll(async () => {
  const ca = await createCertificateAuthority("test-ca", { days: 1 });
  caPem = ca.certPem;
  client = await issueClientCertificate(ca, { commonName: "alice", organizations: ["devs"], days: 1 });
  const serving = await issueServingCertificate(ca, { commonName: "server", hosts: ["127.0.0.1"], days: 1 });
  listener = await listenHttps((request, conn) => handler(request, conn), {
    host: "127.0.0.1",
    port: 0,
    key: serving.keyPem,
    cert: serving.certPem,
    clientCA: caPem,
    shutdownGraceMs: 100,
  });
});
afterAll(() => listener.close());

function session(): ClientHttp2Session {
  return http2Connect(`https://127.0.0.1:${listener.port}`, { ca: caPem, cert: client.certPem, key: client.keyPem });
}

/** Sends one request on the session; resolves with its status and body once the stream ends. */
function send(h2: ClientHttp2Session, path: string, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const stream = h2.request({ ":path": path, ":method": body === undefined ? "GET" : "POST" }, { endStream: body === undefined });
    let status = 0;
    let text = "";
    stream.on("response", (headers) => (status = Number(headers[":status"])));
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => (text += chunk));
    stream.on("end", () => resolve({ status, body: text }));
    stream.on("error", reject);
    if (body !== undefined) stream.end(body);
  });
}

test.skipIf(IS_DENO)("the server offers h2 first by ALPN, as Go's http2.ConfigureServer does, and HTTP/1.1 after it", async () => {
  const negotiated = async (protocols: string[]) => {
    const socket = tlsConnect({ host: "127.0.0.1", port: listener.port, ca: caPem, ALPNProtocols: protocols });
    await new Promise((resolve) => socket.once("secureConnect", resolve));
    socket.destroy();
    return socket.alpnProtocol;
  };
  expect(await negotiated(["h2", "http/1.1"])).toBe("h2");
  expect(await negotiated(["http/1.1"])).toBe("http/1.1");
});

test.skipIf(IS_DENO)("an HTTP/2 request carries its connection's verified client certificate, its body and its path", async () => {
  handler = async (request, conn) =>
    Response.json({
      user: conn.peerCertificate?.commonName,
      verified: conn.peerCertificate?.verified,
      target: conn.requestTarget,
      body: await request.text(),
      host: new URL(request.url).host,
    });
  const h2 = session();
  try {
    const answer = await send(h2, "/api/v1/namespaces?limit=1", "{}");
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({
      user: "alice",
      verified: true,
      target: "/api/v1/namespaces?limit=1",
      body: "{}",
      host: `127.0.0.1:${listener.port}`,
    });
  } finally {
    h2.close();
  }
});

test.skipIf(IS_DENO)(
  "streams on one HTTP/2 connection are served side by side: two open streams both deliver before either ends",
  async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let opened = 0;
    handler = async () => {
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(encoder.encode("first\n"));
          if (++opened === 2) release();
          await released;
          controller.enqueue(encoder.encode("last\n"));
          controller.close();
        },
      });
      return new Response(body, { headers: { "Content-Type": "application/json" } });
    };
    const h2 = session();
    try {
      const answers = await Promise.all([send(h2, "/watch/a"), send(h2, "/watch/b")]);
      expect(answers.map((answer) => answer.body)).toEqual(["first\nlast\n", "first\nlast\n"]);
    } finally {
      h2.close();
    }
  },
);

test("a Host header that Go's httpguts.ValidHostHeader refuses is answered 400 without reaching the handler", async () => {
  let reached = false;
  handler = async () => {
    reached = true;
    return new Response("ok");
  };
  const socket = tlsConnect({ host: "127.0.0.1", port: listener.port, ca: caPem, ALPNProtocols: ["http/1.1"] });
  let text = "";
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => (text += chunk));
  await new Promise((resolve) => socket.once("secureConnect", resolve));
  socket.write("GET /healthz HTTP/1.1\r\nHost: x/livez?\r\n\r\n");
  await new Promise((resolve) => socket.once("close", resolve));
  expect(text).toMatch(/^HTTP\/1\.1 400 /);
  expect(text).toContain("400 Bad Request: malformed Host header");
  expect(reached).toBe(false);
});

test.skipIf(IS_DENO)("an HTTP/2 stream the client resets aborts its request and cancels its response stream (an ended watch)", async () => {
  let aborted!: () => void;
  const abortSeen = new Promise<void>((resolve) => (aborted = resolve));
  let cancelled!: () => void;
  const cancelSeen = new Promise<void>((resolve) => (cancelled = resolve));
  handler = async (request) => {
    request.signal.addEventListener("abort", () => aborted());
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new TextEncoder().encode("first\n")),
      cancel: () => cancelled(),
    });
    return new Response(body);
  };
  const h2 = session();
  try {
    const stream = h2.request({ ":path": "/watch" });
    await new Promise((resolve) => stream.once("data", resolve));
    stream.close(8); // NGHTTP2_CANCEL, as Go's transport resets a stream whose context ended
    await Promise.all([abortSeen, cancelSeen]);
  } finally {
    h2.close();
  }
});

test.skipIf(IS_DENO)(
  "an HTTP/2 stream reset before its handler answered has the response stream it answers with cancelled at once",
  async () => {
    let resetSeen!: () => void;
    const reset = new Promise<void>((resolve) => (resetSeen = resolve));
    let cancelled!: () => void;
    const cancelSeen = new Promise<void>((resolve) => (cancelled = resolve));
    handler = async () => {
      await reset;
      // The stream is gone (Bun's Http2ServerResponse then has no `destroyed`, only its stream has): nothing else would end this body.
      await new Promise((resolve) => setTimeout(resolve, 50));
      return new Response(new ReadableStream<Uint8Array>({ cancel: () => cancelled() }));
    };
    const h2 = session();
    try {
      const stream = h2.request({ ":path": "/watch" });
      stream.on("error", () => {});
      stream.once("ready", () => {
        stream.close(8);
        resetSeen();
      });
      await cancelSeen;
    } finally {
      h2.close();
    }
  },
);

test.skipIf(IS_DENO)(
  "writeChunk: an HTTP/2 HEAD answered from its GET has a Content-Length only when the GET's body fit handlerChunkWriteSize (4096)",
  async () => {
    const h2 = session();
    const lengths: unknown[] = [];
    for (const size of [2049, 4096, 4097]) {
      handler = () => headAnswer(completeResponse("x".repeat(size)));
      lengths.push(
        await new Promise((resolve, reject) => {
          const stream = h2.request({ ":path": "/head", ":method": "HEAD" });
          stream.on("response", (headers) => resolve(headers["content-length"]));
          stream.on("error", reject);
          stream.resume();
        }),
      );
    }
    h2.close();
    expect(lengths).toEqual(["2049", "4096", undefined]);
  },
);
