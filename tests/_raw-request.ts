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
  const text = reply.toString();
  const [head = "", ...rest] = text.split("\r\n\r\n");
  const chunked = /transfer-encoding: chunked/i.test(head);
  const raw = rest.join("\r\n\r\n");
  return { status: Number(head.split(" ")[1]), body: chunked ? dechunk(raw) : raw };
}

/** Writes `request` as is (a head, maybe part of a body) and answers every byte the server sent until it closed. */
export async function rawExchange(server: TestServer, request: string): Promise<Buffer> {
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
    }, () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("end", () => resolve(Buffer.concat(chunks)));
    socket.on("error", reject);
  });
}

function dechunk(raw: string): string {
  let body = "";
  let rest = raw;
  for (;;) {
    const end = rest.indexOf("\r\n");
    const size = Number.parseInt(rest.slice(0, end), 16);
    if (!size) return body;
    body += rest.slice(end + 2, end + 2 + size);
    rest = rest.slice(end + 2 + size + 2);
  }
}
