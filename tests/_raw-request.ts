/**
 * One HTTPS request whose path goes out exactly as written (fetch and URL parsing would resolve "." and ".."
 * segments first), with the admin client certificate; answers the status code and the body.
 */
import { readFile } from "node:fs/promises";
import { connect } from "node:tls";
import { readCredentials, type TestServer } from "./harness.ts";

export async function rawRequest(server: TestServer, method: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(server.url);
  const reply = await rawExchange(
    server,
    `${method} ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: application/json\r\nConnection: close\r\n\r\n`,
  );
  const split = reply.indexOf("\r\n\r\n");
  const head = reply.subarray(0, split).toString();
  const raw = reply.subarray(split + 4);
  const chunked = /transfer-encoding: chunked/i.test(head);
  return { status: Number(head.split(" ")[1]), body: (chunked ? dechunkBytes(raw) : raw).toString() };
}

/**
 * Writes `request` as is (a head, maybe part of a body) and answers every byte the server sent until it closed.
 * `halfClose`: the client then ends its side (TLS close_notify and shutdown(SHUT_WR)), reading on.
 */
export async function rawExchange(server: TestServer, request: string, halfClose = false): Promise<Buffer> {
  const { ca, cert, key } = readCredentials(await readFile(server.kubeconfig, "utf8"));
  const { hostname, port } = new URL(server.url);
  return await new Promise<Buffer>((resolve, reject) => {
    const socket = connect({
      host: hostname,
      port: Number(port),
      ca,
      cert,
      key,
      servername: hostname === "127.0.0.1" ? undefined : hostname,
    }, () => {
      socket.write(request);
      if (halfClose) socket.end();
    });
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("end", () => resolve(Buffer.concat(chunks)));
    socket.on("error", reject);
  });
}

/** A GET with the given Accept-Encoding, its head (lower-case header names) and body read off the wire unzipped by nobody. */
export function rawGet(
  server: TestServer,
  path: string,
  acceptEncoding: string,
): Promise<{ status: number; headers: Map<string, string>; body: Buffer }> {
  return rawSend(server, "GET", path, acceptEncoding);
}

/** As rawGet, for any method; `body` goes with its Content-Type. */
export async function rawSend(
  server: TestServer,
  method: string,
  path: string,
  acceptEncoding: string,
  body?: { contentType: string; text: string },
): Promise<{ status: number; headers: Map<string, string>; body: Buffer }> {
  const { hostname, port } = new URL(server.url);
  const content = body
    ? `Content-Type: ${body.contentType}\r\nContent-Length: ${Buffer.byteLength(body.text)}\r\n\r\n${body.text}`
    : "\r\n";
  const reply = await rawExchange(
    server,
    `${method} ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: application/json\r\nAccept-Encoding: ${acceptEncoding}\r\nConnection: close\r\n${content}`,
  );
  const split = reply.indexOf("\r\n\r\n");
  const [statusLine = "", ...lines] = reply.subarray(0, split).toString().split("\r\n");
  const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
  let answer = reply.subarray(split + 4);
  if (headers.get("transfer-encoding") === "chunked") answer = dechunkBytes(answer);
  return { status: Number(statusLine.split(" ")[1]), headers, body: answer };
}

function dechunkBytes(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const end = raw.indexOf("\r\n", at);
    const size = Number.parseInt(raw.subarray(at, end).toString(), 16);
    if (!size) return Buffer.concat(parts);
    parts.push(raw.subarray(end + 2, end + 2 + size));
    at = end + 2 + size + 2;
  }
}
