import { afterAll, beforeAll, expect, test } from "bun:test";
import { request as httpsRequest, type RequestOptions } from "node:https";
import type { IncomingMessage } from "node:http";
import { connect } from "node:net";
import { connect as connectTls } from "node:tls";
import { setTimeout as delay } from "node:timers/promises";
import {
  createCertificateAuthority,
  issueClientCertificate,
  type IssuedCertificate,
  issueServingCertificate,
} from "../server/certificates.ts";
import { completeResponse, headAnswer } from "./fetch-adapter.ts";
import { type ConnectionHandler, type HttpsListener, listenHttps } from "./listener.ts";

let caPem: string;
let foreignCaPem: string;
let trustedClient: IssuedCertificate;
let foreignClient: IssuedCertificate;
let listener: HttpsListener;
let currentHandler: ConnectionHandler;
let servingCert: IssuedCertificate;

beforeAll(async () => {
  const ca = await createCertificateAuthority("test-ca", { days: 1 });
  const foreignCa = await createCertificateAuthority("foreign-ca", { days: 1 });
  caPem = ca.certPem;
  foreignCaPem = foreignCa.certPem;
  trustedClient = await issueClientCertificate(ca, { commonName: "alice", organizations: ["devs", "ops"], days: 1 });
  foreignClient = await issueClientCertificate(foreignCa, { commonName: "mallory", organizations: ["system:masters"], days: 1 });
  servingCert = await issueServingCertificate(ca, { commonName: "server", hosts: ["127.0.0.1"], days: 1 });
  listener = await startListener((request, conn) => currentHandler(request, conn));
});

function startListener(handler: ConnectionHandler, shutdownGraceMs?: number): Promise<HttpsListener> {
  return listenHttps(handler, {
    host: "127.0.0.1",
    port: 0,
    key: servingCert.keyPem,
    cert: servingCert.certPem,
    clientCA: caPem,
    shutdownGraceMs,
  });
}

afterAll(() => listener.close());

function send(path: string, client?: IssuedCertificate, extra: RequestOptions = {}): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      { host: "127.0.0.1", port: listener.port, path, ca: caPem, cert: client?.certPem, key: client?.keyPem, agent: false, ...extra },
      resolve,
    );
    req.on("error", reject);
    req.end();
  });
}

async function readAll(response: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of response) text += chunk;
  return text;
}

function samePem(a: string, b: string): boolean {
  return a.replace(/\s/g, "") === b.replace(/\s/g, "");
}

function echoConnection(): ConnectionHandler {
  return async (request, conn) => Response.json({ path: new URL(request.url).pathname, conn });
}

test("listenHttps() on port 0 reports the bound port", () => {
  expect(listener.port).toBeGreaterThan(0);
});

test("a client certificate signed by the client CA is seen as verified with its CN and all O values", async () => {
  currentHandler = echoConnection();
  const body = JSON.parse(await readAll(await send("/who", trustedClient)));
  expect(body).toEqual({
    path: "/who",
    conn: {
      peerCertificate: { commonName: "alice", organizations: ["devs", "ops"], verified: true, chain: expect.any(Array) },
      requestTarget: "/who",
      remoteAddress: "127.0.0.1",
    },
  });
  expect(samePem(body.conn.peerCertificate.chain[0], trustedClient.certPem)).toBe(true);
});

test("a client certificate from a foreign CA is passed on as unverified", async () => {
  currentHandler = echoConnection();
  const body = JSON.parse(await readAll(await send("/who", foreignClient)));
  expect(body.conn).toEqual({
    peerCertificate: { commonName: "mallory", organizations: ["system:masters"], verified: false, chain: [expect.any(String)] },
    requestTarget: "/who",
    remoteAddress: "127.0.0.1",
  });
  expect(samePem(body.conn.peerCertificate.chain[0], foreignClient.certPem)).toBe(true);
});

test("a certificate from the request-header CA passes the handshake but is not verified as a client-CA certificate", async () => {
  const proxyListener = await listenHttps(echoConnection(), {
    host: "127.0.0.1",
    port: 0,
    key: servingCert.keyPem,
    cert: servingCert.certPem,
    clientCA: caPem,
    requestHeaderCA: foreignCaPem,
  });
  try {
    const body = JSON.parse(await readAll(await send("/who", foreignClient, { port: proxyListener.port })));
    expect(body.conn.peerCertificate).toMatchObject({ commonName: "mallory", verified: false });
    expect(samePem(body.conn.peerCertificate.chain[0], foreignClient.certPem)).toBe(true);
  } finally {
    await proxyListener.close();
  }
});

test("a request without a client certificate has no peer certificate (only the request target as sent)", async () => {
  currentHandler = echoConnection();
  const body = JSON.parse(await readAll(await send("/anon")));
  expect(body.conn).toEqual({ requestTarget: "/anon", remoteAddress: "127.0.0.1" });
});

/** The bytes of the first answer on a kept-alive HTTP/1.1 connection, head and body. */
function rawAnswer(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connectTls({ host: "127.0.0.1", port: listener.port, ca: caPem, ALPNProtocols: ["http/1.1"] }, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    });
    let text = "";
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("latin1");
      if (text.endsWith("\r\n\r\nok")) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on("error", reject);
  });
}

// Go's chunkWriter.writeHeader dates each answer with time.Now() in http.TimeFormat when the handler set no Date.
test("a complete answer carries one Date of the current second, after its length, as before it was cached", async () => {
  // Answered at once, without a promise: the listener writes it before the handler's caller returns.
  currentHandler = () => completeResponse("ok", { headers: { "Content-Type": "text/plain" } });
  const before = Math.floor(Date.now() / 1000) * 1000;
  const answer = await rawAnswer("/dated");
  const after = Date.now();
  expect(answer).toMatch(
    /^HTTP\/1\.1 200 OK\r\ncontent-type: text\/plain\r\ncontent-length: 2\r\nDate: [^\r]+\r\n\r\nok$/,
  );
  const date = Date.parse(/\r\nDate: ([^\r]+)\r\n/.exec(answer)![1]!);
  expect(date).toBeGreaterThanOrEqual(before);
  expect(date).toBeLessThanOrEqual(after);
});

test("an answer that names its own Date keeps it and gets no second one", async () => {
  const upstreamDate = "Mon, 02 Jan 2006 15:04:05 GMT";
  currentHandler = () => Promise.resolve(completeResponse("ok", { headers: { Date: upstreamDate } }));
  const answer = await rawAnswer("/proxied");
  expect(answer.match(/\r\ndate: /gi)).toHaveLength(1);
  expect(answer).toContain(`\r\ndate: ${upstreamDate}\r\n`);
});

// Go's server writes a header's bytes as they are: a Response holds them one character per byte (warning-headers.ts).
test("a header value's UTF-8 bytes (held one character per byte) leave over HTTP/1.1 once, as they are", async () => {
  const utf8 = Buffer.from('299 - "café"').toString("latin1");
  currentHandler = () => completeResponse("ok", { headers: { Warning: utf8 } });
  expect(await rawAnswer("/warned")).toContain(`\r\nwarning: ${utf8}\r\n`);
});

// http.Header's write (WriteSubset) writes a value's bytes as they are, whatever they are: so does kubun's head writer.
test("a header value's bytes past Latin-1's UTF-8, and bytes that are no UTF-8, leave as they are (Go's Header.WriteSubset)", async () => {
  const beyondLatin1 = Buffer.from('299 - "→"').toString("latin1");
  currentHandler = () => completeResponse("ok", { headers: { Warning: beyondLatin1, "X-Not-Utf8": "caf\u00e9" } });
  const answer = await rawAnswer("/unwritable");
  expect(answer).toStartWith("HTTP/1.1 200 OK\r\n");
  expect(answer).toContain(`\r\nwarning: ${beyondLatin1}\r\n`);
  expect(answer).toContain("\r\nx-not-utf8: caf\u00e9\r\n");
});

test("a streaming response arrives chunk by chunk before the stream ends", async () => {
  let releaseSecond!: () => void;
  const secondAllowed = new Promise<void>((resolve) => (releaseSecond = resolve));
  currentHandler = async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode("first\n"));
          await secondAllowed;
          controller.enqueue(new TextEncoder().encode("second\n"));
          controller.close();
        },
      }),
      { headers: { "content-type": "application/json" } },
    );
  const response = await send("/watch", trustedClient);
  expect(response.headers["transfer-encoding"]).toBe("chunked");
  const chunks: string[] = [];
  for await (const chunk of response) {
    chunks.push(String(chunk));
    // The second chunk only exists once the first one has reached the client.
    if (chunks.length === 1) releaseSecond();
  }
  expect(chunks).toEqual(["first\n", "second\n"]);
});

test("a client disconnect cancels the response stream", async () => {
  let cancelled!: () => void;
  const wasCancelled = new Promise<string>((resolve) => (cancelled = () => resolve("cancelled")));
  currentHandler = async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("event\n"));
        },
        cancel: () => cancelled(),
      }),
    );
  const response = await send("/watch", trustedClient);
  await new Promise((resolve) => response.once("data", resolve));
  response.destroy();
  const timeout = new Promise<string>((resolve) => setTimeout(() => resolve("still open"), 2000));
  expect(await Promise.race([wasCancelled, timeout])).toBe("cancelled");
});

test("a handler that throws instead of answering has its connection closed, and the server keeps serving", async () => {
  currentHandler = () => {
    throw new Error("a bug in the handler");
  };
  const failed = await send("/throws", trustedClient).then(() => "answered", (error: Error) => error.message);
  expect(failed).toMatch(/socket hang up|ECONNRESET/);
  currentHandler = echoConnection();
  const response = await send("/after-throw", trustedClient);
  expect(response.statusCode).toBe(200);
  await readAll(response);
});

test("garbage instead of a TLS handshake closes that socket and the server keeps serving", async () => {
  await new Promise<void>((resolve) => {
    const socket = connect(listener.port, "127.0.0.1", () => socket.write("GET / HTTP/1.1\r\n\r\nnot tls at all"));
    socket.on("close", () => resolve());
    socket.on("error", () => {});
  });
  currentHandler = echoConnection();
  const response = await send("/after", trustedClient);
  expect(response.statusCode).toBe(200);
  await readAll(response);
});

test("close() lets a running request finish and then stops accepting connections", async () => {
  let finishRequest!: () => void;
  const requestMayFinish = new Promise<void>((resolve) => (finishRequest = resolve));
  const ownListener = await startListener(async () => {
    await requestMayFinish;
    return new Response("done");
  });
  const pending = send("/slow", trustedClient, { port: ownListener.port });
  await delay(50);
  const closing = ownListener.close();
  finishRequest();
  const response = await pending;
  expect(await readAll(response)).toBe("done");
  await closing;
  await expect(send("/again", trustedClient, { port: ownListener.port })).rejects.toThrow("ECONNREFUSED");
});

test("close() cuts a request still running after the grace period", async () => {
  const ownListener = await startListener(() => new Promise<Response>(() => {}), 100);
  const pending = send("/hangs", trustedClient, { port: ownListener.port });
  await delay(50);
  await ownListener.close();
  await expect(pending).rejects.toThrow();
});

test("chunkWriter.writeHeader: a HEAD answered from its GET has a Content-Length only when the GET's body fit Go's 2048-byte buffer", async () => {
  const heads: string[] = [];
  for (const size of [12, 2048, 2049]) {
    currentHandler = () => headAnswer(completeResponse("x".repeat(size)));
    const response = await send("/head", trustedClient, { method: "HEAD" });
    heads.push(`${response.headers["content-length"]} ${response.headers["transfer-encoding"]}`);
    await readAll(response);
  }
  expect(heads).toEqual(["12 undefined", "2048 undefined", "undefined undefined"]);
});
