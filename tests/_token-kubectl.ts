/** kubectl with credentials other than the admin certificate: a kubeconfig with `token:` or a client cert, built per test. */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import type { CommandResult, TestServer } from "./harness.ts";
import { KUBECTL } from "./_kubectl-stream.ts";

export interface KubectlUser {
  token?: string;
  clientCertPem?: string;
  clientKeyPem?: string;
}

function base64(text: string): string {
  return Buffer.from(text).toString("base64");
}

/** Writes a kubeconfig for the server (its CA) with this user and returns a kubectl bound to it. */
export async function kubectlAs(server: TestServer, user: KubectlUser): Promise<(args: string[]) => Promise<CommandResult>> {
  const ca = parse(await readFile(server.kubeconfig, "utf8")).clusters[0].cluster["certificate-authority-data"];
  const entry: Record<string, string> = {};
  if (user.token) entry.token = user.token;
  if (user.clientCertPem) entry["client-certificate-data"] = base64(user.clientCertPem);
  if (user.clientKeyPem) entry["client-key-data"] = base64(user.clientKeyPem);
  const path = join(await mkdtemp(join(tmpdir(), "kubun-kubeconfig-")), "config");
  await writeFile(
    path,
    stringify({
      apiVersion: "v1",
      kind: "Config",
      clusters: [{ name: "kubun", cluster: { server: server.url, "certificate-authority-data": ca } }],
      users: [{ name: "user", user: entry }],
      contexts: [{ name: "kubun", context: { cluster: "kubun", user: "user" } }],
      "current-context": "kubun",
    }),
    { mode: 0o600 },
  );
  return (args) =>
    new Promise((resolve) => {
      execFile(KUBECTL, ["--kubeconfig", path, ...args], { timeout: 30_000 }, (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
      });
    });
}
