/**
 * dist/kubun as a bare process under umask 022, for tests about the data directory itself (several processes on
 * one directory, start-up refusals, file modes): the start-up log is kept, and a failed start is an answer.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { KUBUN_BINARY } from "./harness.ts";

const START_TIMEOUT_MS = 30_000;
const running = new Set<ChildProcess>();
process.on("exit", () => running.forEach((child) => child.kill("SIGKILL")));

export interface KubunProcess {
  url: string;
  log(): string;
  /** SIGTERM; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** The process's end: its exit code once it has exited. */
  exited: Promise<number | null>;
}

export type StartAnswer = { started: KubunProcess } | { exitCode: number | null; log: string };

/** Starts kubun on `dataDir`; answers once it logs that it serves, or once it exits. */
export function runKubun(dataDir: string, flags: string[] = []): Promise<StartAnswer> {
  const args = ["--secure-port", "0", "--bind-address", "127.0.0.1", "--data-dir", dataDir, ...flags].map((arg) =>
    `'${arg.replaceAll("'", "'\\''")}'`
  );
  const child = spawn("sh", ["-c", `umask 022; exec '${KUBUN_BINARY}' ${args.join(" ")}`], { stdio: ["ignore", "ignore", "pipe"] });
  running.add(child);
  let log = "";
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      running.delete(child);
      resolve(code);
    })
  );
  const stop = async (url: string) => {
    // kubun installs its SIGTERM handler right after logging that it serves; any answer comes after that.
    await fetch(`${url}/readyz`, { tls: { rejectUnauthorized: false } }).catch(() => undefined);
    child.kill("SIGTERM");
    return await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`kubun neither served nor exited within ${START_TIMEOUT_MS} ms:\n${log}`));
    }, START_TIMEOUT_MS);
    child.stderr!.on("data", (chunk: Buffer) => {
      log += chunk.toString();
      const url = /serving the Kubernetes API on (https:\/\/\S+) /.exec(log)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ started: { url, log: () => log, stop: () => stop(url), exited } });
      }
    });
    exited.then((exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, log });
    });
  });
}

/** Starts kubun and fails with its log when it does not serve. */
export async function startKubun(dataDir: string, flags: string[] = []): Promise<KubunProcess> {
  const answer = await runKubun(dataDir, flags);
  if ("started" in answer) return answer.started;
  throw new Error(`kubun exited with ${answer.exitCode} during start-up:\n${answer.log}`);
}

/** A request with the admin certificate on disk, trusting only the CA on disk. */
export async function asAdminOnDisk(dataDir: string, url: string, path: string, init: RequestInit = {}): Promise<Response> {
  const [ca, cert, key] = await Promise.all(["ca.crt", "admin.crt", "admin.key"].map((name) => readFile(join(dataDir, name), "utf8")));
  return fetch(url + path, { ...init, tls: { ca, cert, key } });
}

/** One run of a `dist/kubun` sub-command (snapshot, migrate, ...), answered with its exit code and output. */
export function kubunCommand(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(KUBUN_BINARY, args, (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }))
  );
}
