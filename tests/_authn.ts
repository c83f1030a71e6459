/**
 * Helpers for the authentication end-to-end tests: kubeconfigs for users other than admin (token, exec plugin,
 * client certificate, none), plugin modules written to a temp dir, and a "whoami" authorizer that reveals the
 * identity a request arrived with through its 403 message.
 */
import { expect } from "bun:test";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { type CommandResult, runKubectl, serverCommand, type TestServer } from "./harness.ts";
import type { Json } from "./_api.ts";

/** The `user:` entry of a kubeconfig: {token}, {exec}, {client-certificate-data, client-key-data} or {} (anonymous). */
export type KubeconfigUser = Record<string, unknown>;

/** A scratch directory for modules, scripts and kubeconfigs; remove() deletes it. */
export async function scratchDir(): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), "kubun-authn-"));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** Writes a copy of the admin kubeconfig whose user is `user`; returns its path. */
export async function writeUserKubeconfig(server: TestServer, dir: string, name: string, user: KubeconfigUser): Promise<string> {
  const config = parse(await readFile(server.kubeconfig, "utf8"));
  config.users = [{ name, user }];
  config.contexts[0].context.user = name;
  const path = join(dir, `${name}.kubeconfig`);
  await writeFile(path, stringify(config), { mode: 0o600 });
  return path;
}

export function kubectlWith(kubeconfig: string, args: string[]): Promise<CommandResult> {
  return runKubectl(["--kubeconfig", kubeconfig, ...args]);
}

/**
 * An authorizer module (no imports, so it loads in the compiled binary from any directory): GET /whoami is
 * denied with the user as JSON in the reason; `impersonate` of anything named "forbidden" is denied; the rest allowed.
 */
export const WHOAMI_AUTHORIZER = `
export default () => ({
  authorize(a) {
    if (!a.isResourceRequest && a.path === "/whoami") return Promise.resolve({ decision: "Deny", reason: JSON.stringify(a.user) });
    if (a.verb === "impersonate" && a.name === "forbidden") return Promise.resolve({ decision: "NoOpinion" });
    return Promise.resolve({ decision: "Allow" });
  },
});
`;

export async function writeModule(dir: string, fileName: string, source: string): Promise<string> {
  const path = join(dir, fileName);
  await writeFile(path, source);
  return path;
}

/** Asks the whoami authorizer who this kubeconfig's requests are from (kubectl must fail with its 403). */
export async function whoami(kubeconfig: string, extraArgs: string[] = []): Promise<Json> {
  const result = await kubectlWith(kubeconfig, [...extraArgs, "get", "--raw", "/whoami"]);
  const match = /cannot get path "\/whoami": (\{.*\})/.exec(result.stderr);
  expect({ code: result.code, stderr: match ? "" : result.stderr }).toEqual({ code: 1, stderr: "" });
  return JSON.parse(match![1]!);
}

/** Runs `kubun kubeconfig <args>` (the server under test) and returns the kubeconfig it prints. */
export function issueKubeconfig(args: string[]): Promise<CommandResult> {
  return new Promise((resolve) => {
    const [program, ...programArgs] = serverCommand();
    execFile(program!, [...programArgs, "kubeconfig", ...args], (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
  });
}
