/**
 * Decodes request bodies captured from the real kubectl: a loopback HTTPS server records what
 * `kubectl create ...` POSTs (protobuf, as kubectl's typed clients send) and echoes the object as JSON.
 */
import { expect, test } from "bun:test";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { decodeProtobufObject } from "./codec.ts";
import { PROTOBUF_MEDIA_TYPE } from "./media-types.ts";

const run = promisify(execFile);
const KUBECTL = "/usr/bin/kubectl";

interface Captured {
  contentType: string;
  body: Uint8Array;
}

async function selfSignedCert(dir: string): Promise<{ key: string; cert: string }> {
  const [key, cert] = [join(dir, "key.pem"), join(dir, "cert.pem")];
  await run("openssl", [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    key,
    "-out",
    cert,
    "-days",
    "1",
    "-subj",
    "/CN=127.0.0.1",
  ]);
  return { key: readFileSync(key, "utf8"), cert: readFileSync(cert, "utf8") };
}

function recordingServer(tls: { key: string; cert: string }, captured: Captured[]): Server {
  return createServer(tls, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method !== "POST") {
        res.writeHead(404, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ kind: "Status", apiVersion: "v1", status: "Failure", reason: "NotFound", code: 404 }));
        return;
      }
      const body = new Uint8Array(Buffer.concat(chunks));
      captured.push({ contentType: req.headers["content-type"] ?? "", body });
      res.writeHead(201, { "Content-Type": "application/json" });
      res.end(JSON.stringify(decodeProtobufObject(body).object));
    });
  });
}

/** The bodies kubectl POSTs for each argument list, in order; null when kubectl or openssl is missing. */
async function captureKubectlBodies(commands: string[][]): Promise<Captured[] | null> {
  if (!existsSync(KUBECTL)) return null;
  const dir = mkdtempSync(join(tmpdir(), "kubun-pb-"));
  const captured: Captured[] = [];
  try {
    const server = recordingServer(await selfSignedCert(dir), captured);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const kubeconfig = join(dir, "kubeconfig");
    writeFileSync(kubeconfig, "apiVersion: v1\nkind: Config\n");
    const flags = [
      `--server=https://127.0.0.1:${port}`,
      "--insecure-skip-tls-verify",
      "--token=x",
      `--kubeconfig=${kubeconfig}`,
      "-o",
      "name",
    ];
    try {
      for (const command of commands) await run(KUBECTL, [...command, ...flags]);
    } finally {
      server.close();
    }
    return captured;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("bodies kubectl create sends in protobuf decode to the JSON kube would see", async () => {
  const captured = await captureKubectlBodies([
    ["create", "namespace", "x"],
    ["create", "configmap", "c", "--from-literal=a=b", "-n", "x"],
    ["create", "secret", "generic", "s", "--from-literal=k=v", "-n", "x"],
  ]);
  if (captured === null) {
    console.log("kubectl-capture: kubectl or openssl is not installed, nothing to capture");
    return;
  }
  expect(captured.map((c) => c.contentType)).toEqual([PROTOBUF_MEDIA_TYPE, PROTOBUF_MEDIA_TYPE, PROTOBUF_MEDIA_TYPE]);
  const [namespace, configMap, secret] = captured.map((c) => decodeProtobufObject(c.body).object);
  // Go's JSON of the same objects: non-pointer structs present even when empty, a zero time as null.
  expect(namespace).toEqual({
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name: "x", creationTimestamp: null },
    spec: {},
    status: {},
  });
  expect(configMap).toEqual({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "c", namespace: "x", creationTimestamp: null },
    data: { a: "b" },
  });
  expect(secret).toEqual({
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: "s", namespace: "x", creationTimestamp: null },
    data: { k: Buffer.from("v").toString("base64") },
  });
}, 30_000);
