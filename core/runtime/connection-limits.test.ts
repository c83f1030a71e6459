/**
 * The listener's connection bounds with shortened timeouts: kube's secure server (secure_serving.go) gives
 * Go's http.Server ReadHeaderTimeout, IdleTimeout and MaxHeaderBytes; Go answers unreadable heads itself.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { connect as tlsConnect, type TLSSocket } from "node:tls";
import { connect, type Socket } from "node:net";
import { createCertificateAuthority, issueServingCertificate } from "../server/certificates.ts";
import { type HttpsListener, listenHttps } from "./listener.ts";
import { captureLogs } from "../log/testing.ts";

const TIMEOUTS = { readHeaderTimeoutMs: 300, idleTimeoutMs: 600 };
/** Far beyond every timeout above: a connection still open then was never going to be cut. */
const GIVE_UP_MS = 10_000;
let caPem: string;
let listener: HttpsListener;

beforeAll(async () => {
  const ca = await createCertificateAuthority("limits-ca", { days: 1 });
  caPem = ca.certPem;
  const serving = await issueServingCertificate(ca, { commonName: "server", hosts: ["127.0.0.1"], days: 1 });
  listener = await listenHttps(
    async (request) => {
      const url = new URL(request.url);
      if (url.pathname === "/slow") await Bun.sleep(3 * TIMEOUTS.idleTimeoutMs);
      const body = request.method === "POST" ? await request.text() : "";
      return new Response(`ok ${body.length}`);
    },
    { host: "127.0.0.1", port: 0, key: serving.keyPem, cert: serving.certPem, clientCA: caPem, timeouts: TIMEOUTS, maxConnections: 20 },
  );
});
afterAll(() => listener.close());

function openTls(): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: "127.0.0.1", port: listener.port, ca: caPem }, () => resolve(socket));
    socket.on("error", reject);
  });
}

/** Everything the server sends until it closes the connection, or "still open" after GIVE_UP_MS. */
function readUntilClosed(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(`${text}[still open]`);
    }, GIVE_UP_MS);
    socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(text);
    });
  });
}

async function exchange(head: string): Promise<string> {
  const socket = await openTls();
  socket.write(head);
  return readUntilClosed(socket);
}

async function stillServing(): Promise<void> {
  const answer = await exchange("GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  expect(answer).toStartWith("HTTP/1.1 200 OK");
  expect(answer).toEndWith("ok 0");
}

test("a request head of nearly 1 MiB is served (secure_serving.go MaxHeaderBytes 1 << 20)", async () => {
  const answer = await exchange(`GET /ok HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(1 << 20)}\r\nConnection: close\r\n\r\n`);
  expect(answer).toStartWith("HTTP/1.1 200 OK");
});

test("a request head over MaxHeaderBytes answers Go's 431 text and closes (net/http conn.serve errTooLarge)", async () => {
  const answer = await exchange(`GET /ok HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(1 << 21)}\r\n\r\n`);
  expect(answer).toBe(
    "HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n431 Request Header Fields Too Large",
  );
  await stillServing();
});

test("a malformed header line answers Go's 400 text and closes (net/http conn.serve)", async () => {
  for (const line of ["this is not a header", "Bad Name: x", "X-Ctl: a\u0001b"]) {
    const answer = await exchange(`GET /ok HTTP/1.1\r\nHost: x\r\n${line}\r\n\r\n`);
    expect([line, answer]).toEqual([
      line,
      "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request",
    ]);
  }
  await stillServing();
});

test("a TLS handshake that never starts is cut after the read timeout (Go's tlsHandshakeTimeout)", async () => {
  const raw = connect(listener.port, "127.0.0.1");
  expect(await readUntilClosed(raw)).toBe("");
  await stillServing();
});

test("a request head that never completes is cut after ReadHeaderTimeout", async () => {
  const socket = await openTls();
  socket.write("GET /ok HTTP/1.1\r\nHost: x\r\n");
  expect(await readUntilClosed(socket)).toBe("");
});

test("a request body that stops arriving is cut, one that keeps arriving is served", async () => {
  const stalled = await openTls();
  stalled.write("POST /ok HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc");
  expect(await readUntilClosed(stalled)).toBe("");

  const trickle = await openTls();
  trickle.write("POST /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 6\r\n\r\n");
  for (const piece of ["ab", "cd", "ef"]) {
    await Bun.sleep(TIMEOUTS.readHeaderTimeoutMs / 2);
    trickle.write(piece);
  }
  expect(await readUntilClosed(trickle)).toEndWith("ok 6");
});

test("a kept-alive connection with no next request is closed after IdleTimeout", async () => {
  const socket = await openTls();
  socket.write("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n");
  const answer = await readUntilClosed(socket);
  expect(answer).toStartWith("HTTP/1.1 200 OK");
  expect(answer).not.toContain("[still open]");
});

test("a request served for longer than every timeout is not cut", async () => {
  expect(await exchange("GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).toEndWith("ok 0");
});

test("a request with a body pipelined behind one served longer than every timeout waits its turn (conn.serve) and is not cut", async () => {
  const answer = await exchange(
    "GET /slow HTTP/1.1\r\nHost: x\r\n\r\nPOST /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 3\r\n\r\nabc",
  );
  expect(answer).toStartWith("HTTP/1.1 200 OK");
  expect(answer).toContain("ok 0HTTP/1.1 200 OK");
  expect(answer).toEndWith("ok 3");
});

test("connections beyond the cap are refused with one log line while the ones open keep working", async () => {
  const logged = captureLogs();
  const held = await Promise.all(Array.from({ length: 20 }, () => openTls()));
  const refused = Array.from({ length: 3 }, () => connect(listener.port, "127.0.0.1"));
  expect(await Promise.all(refused.map(readUntilClosed))).toEqual(["", "", ""]);
  logged.restore();
  expect(logged.lines).toHaveLength(1);
  expect(logged.lines[0]).toEndWith("listener] connection limit reached (20 open): refusing new connections until some close");
  held[0].write("GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  expect(await readUntilClosed(held[0])).toEndWith("ok 0");
  for (const socket of held) socket.destroy();
  await Bun.sleep(50);
  await stillServing();
});
