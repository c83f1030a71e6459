/**
 * Connection bounds of the compiled server (issue 20, items 4 and 9), with the hidden timeout flags shortened:
 * kube-apiserver's secure server (secure_serving.go) runs Go's http.Server with ReadHeaderTimeout, IdleTimeout
 * and MaxHeaderBytes 1 MiB, and Go answers unreadable heads with 431 / 400 itself. Slow clients are cut, the
 * admin keeps being served meanwhile, and nothing is written. Every connection targets 127.0.0.1 and is bounded.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { connect as tlsConnect, type TLSSocket } from "node:tls";
import { parse } from "yaml";
import { startServer, type TestServer } from "./harness.ts";

const MAX_CONNECTIONS = 150;
const FLAGS = ["--read-header-timeout=1s", "--idle-connection-timeout=2s", `--max-connections=${MAX_CONNECTIONS}`];
/** Far beyond every timeout above: a connection still open then was never going to be cut. */
const GIVE_UP_MS = 20_000;
let server: TestServer;
let port: number;
let ca: string;
let admin: { cert: string; key: string };

beforeAll(async () => {
  server = await startServer(FLAGS);
  port = Number(new URL(server.url).port);
  const config = parse(readFileSync(server.kubeconfig, "utf8"));
  const decode = (value: string) => Buffer.from(value, "base64").toString();
  ca = decode(config.clusters[0].cluster["certificate-authority-data"]);
  admin = { cert: decode(config.users[0].user["client-certificate-data"]), key: decode(config.users[0].user["client-key-data"]) };
});
afterAll(async () => {
  await server?.stop();
});

/** A TLS connection, anonymous or with the admin's client certificate (whose request bodies are read). */
function openTls(asAdmin = false): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: "127.0.0.1", port, ca, ...(asAdmin ? admin : {}) }, () => resolve(socket));
    socket.on("error", reject);
  });
}

/** What the server sent before closing the connection, with "[still open]" if it had not closed after GIVE_UP_MS. */
function untilClosed(socket: Socket): Promise<string> {
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

async function adminCanList(): Promise<void> {
  const listed = await server.kubectl(["get", "namespaces", "-o", "name"]);
  expect(listed.stderr).toBe("");
  expect(listed.stdout).toContain("namespace/default");
}

test("stalled handshakes, unfinished heads and stalled bodies are cut after ReadHeaderTimeout while the admin is served", async () => {
  const handshakes = Array.from({ length: 40 }, () => connect(port, "127.0.0.1"));
  const heads = await Promise.all(Array.from({ length: 40 }, () => openTls()));
  for (const socket of heads) socket.write("GET /api/v1/namespaces HTTP/1.1\r\nHost: x\r\n");
  const bodies = await Promise.all(Array.from({ length: 30 }, () => openTls(true)));
  for (const socket of bodies) {
    socket.write(
      'POST /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"apiVersion":',
    );
  }
  const closed = Promise.all([...handshakes, ...heads, ...bodies].map(untilClosed));
  await adminCanList();
  expect(new Set(await closed)).toEqual(new Set([""]));
  await adminCanList();
});

test("kept-alive connections with no next request are closed after IdleTimeout", async () => {
  const sockets = await Promise.all(Array.from({ length: 50 }, () => openTls()));
  for (const socket of sockets) socket.write("GET /livez HTTP/1.1\r\nHost: x\r\n\r\n");
  const answers = await Promise.all(sockets.map(untilClosed));
  for (const answer of answers) {
    expect(answer).toMatch(/^HTTP\/1\.1 (200|401|403) /);
    expect(answer).not.toContain("[still open]");
  }
});

test("past the connection cap new connections are refused, and the admin gets in once stalled handshakes are cut", async () => {
  const hogs = Array.from({ length: MAX_CONNECTIONS + 20 }, () => connect(port, "127.0.0.1"));
  const closed = Promise.all(hogs.map(untilClosed));
  await Bun.sleep(200);
  let served = false;
  for (let attempt = 0; attempt < 40 && !served; attempt++) {
    served = await server.request("GET", "/api/v1/namespaces/default").then((response) => response.status === 200, () => false);
    if (!served) await Bun.sleep(250);
  }
  expect(served).toBe(true);
  expect(new Set(await closed)).toEqual(new Set([""]));
});

test("a request head of nearly 1 MiB is served and a larger one answers Go's 431 (MaxHeaderBytes, conn.serve errTooLarge)", async () => {
  const big = await server.request("GET", "/api/v1/namespaces/default", { headers: { "X-Padding": "p".repeat(1 << 20) } });
  expect(big.status).toBe(200);
  const socket = await openTls();
  socket.write(`GET /api/v1/namespaces/default HTTP/1.1\r\nHost: x\r\nX-Padding: ${"p".repeat(1 << 21)}\r\n\r\n`);
  expect(await untilClosed(socket)).toBe(
    "HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n431 Request Header Fields Too Large",
  );
  await adminCanList();
});

test("a malformed header line answers Go's 400 Bad Request and writes nothing (net/http conn.serve)", async () => {
  const socket = await openTls();
  const body = JSON.stringify({ apiVersion: "v1", kind: "Namespace", metadata: { name: "never" } });
  socket.write(
    `POST /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nthis line is no header\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
  );
  expect(await untilClosed(socket)).toBe(
    "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request",
  );
  expect((await server.request("GET", "/api/v1/namespaces/never")).status).toBe(404);
});
