/**
 * Runs the real kubectl (Go, k8s.io/api's generated protobuf code) against a loopback HTTPS server whose answers a
 * test chooses, so tests can see what kubectl sends and how it reads what it gets back.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const KUBECTL = "/usr/bin/kubectl";

export interface KubectlRequest {
  method: string;
  url: string;
  contentType: string;
  body: Uint8Array;
}

export interface KubectlAnswer {
  status: number;
  contentType: string;
  body: Uint8Array | string;
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

function readRequest(req: IncomingMessage): Promise<KubectlRequest> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("error", reject);
    req.on("end", () =>
      resolve({
        method: req.method ?? "",
        url: req.url ?? "",
        contentType: req.headers["content-type"] ?? "",
        body: new Uint8Array(Buffer.concat(chunks)),
      }));
  });
}

/**
 * Each kubectl command's standard output, run in turn against a server answering every request with `answer`
 * (`extraFlags` are appended, e.g. `-o json`); null when kubectl or openssl is not installed.
 */
export async function runKubectlAgainst(
  answer: (request: KubectlRequest) => KubectlAnswer,
  commands: string[][],
  extraFlags: string[],
): Promise<string[] | null> {
  if (!existsSync(KUBECTL)) return null;
  const dir = mkdtempSync(join(tmpdir(), "kubun-kubectl-"));
  try {
    const server = createServer(await selfSignedCert(dir), (req, res) => {
      readRequest(req).then((request) => {
        const { status, contentType, body } = answer(request);
        res.writeHead(status, { "Content-Type": contentType });
        res.end(body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const kubeconfig = join(dir, "kubeconfig");
    writeFileSync(kubeconfig, "apiVersion: v1\nkind: Config\n");
    const flags = [
      `--server=https://127.0.0.1:${port}`,
      "--insecure-skip-tls-verify",
      "--token=x",
      `--kubeconfig=${kubeconfig}`,
      ...extraFlags,
    ];
    try {
      const outputs: string[] = [];
      for (const command of commands) outputs.push((await run(KUBECTL, [...command, ...flags])).stdout);
      return outputs;
    } finally {
      server.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
