import { afterAll, expect, test } from "bun:test";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { parseFlags } from "./flags.ts";
import { runServer } from "./run.ts";

const run = promisify(execFile);
const root = mkdtempSync(join(tmpdir(), "kubun-run-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function kubectl(kubeconfig: string, ...args: string[]): Promise<{ stdout: string }> {
  return run("/usr/bin/kubectl", ["--kubeconfig", kubeconfig, ...args]);
}

test("runServer() serves on a free port and writes an admin kubeconfig kubectl can use", async () => {
  const dataDir = join(root, "first");
  const lines: string[] = [];
  const server = await runServer(parseFlags(["--secure-port=0", `--data-dir=${dataDir}`]), {
    log: (line) => lines.push(line),
    authenticators: [],
  });
  try {
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(server.kubeconfigPath).mode & 0o777).toBe(0o600);
    expect(readFileSync(server.kubeconfigPath, "utf8")).toContain(`server: https://127.0.0.1:${server.port}`);
    expect(existsSync(join(dataDir, "kubun.db"))).toBe(true);
    expect((await kubectl(server.kubeconfigPath, "get", "--raw", "/livez")).stdout).toBe("ok");
    expect(lines).toEqual([
      `serving the Kubernetes API on https://127.0.0.1:${server.port} (data dir ${dataDir}, admin kubeconfig ${server.kubeconfigPath})`,
    ]);
    expect(lines.join("")).not.toContain("PRIVATE KEY");
  } finally {
    await server.stop();
  }
});

test("stop() closes the port and a second start reuses the data directory's CA", async () => {
  const dataDir = join(root, "restart");
  const flags = parseFlags(["--secure-port=0", `--data-dir=${dataDir}`]);
  const first = await runServer(flags, { log: () => {}, authenticators: [] });
  await first.stop();
  await expect(kubectl(first.kubeconfigPath, "get", "--raw", "/livez", "--request-timeout=2s")).rejects.toThrow();
  const caBefore = readFileSync(join(dataDir, "ca.crt"), "utf8");
  const second = await runServer(flags, { log: () => {}, authenticators: [] });
  try {
    expect(readFileSync(join(dataDir, "ca.crt"), "utf8")).toBe(caBefore);
    expect((await kubectl(second.kubeconfigPath, "get", "--raw", "/readyz")).stdout).toBe("ok");
  } finally {
    await second.stop();
  }
});

// The refused start stops everything it had started before the listener (about 5 s here), then rejects.
test("a port already in use fails the start with EADDRINUSE", async () => {
  const holder = await runServer(parseFlags(["--secure-port=0", `--data-dir=${join(root, "holder")}`]), {
    log: () => {},
    authenticators: [],
  });
  try {
    const flags = parseFlags([`--secure-port=${holder.port}`, `--data-dir=${join(root, "clash")}`]);
    await expect(runServer(flags, { log: () => {}, authenticators: [] })).rejects.toThrow("EADDRINUSE");
  } finally {
    await holder.stop();
  }
}, 30_000);

test("a serving certificate file without its key is refused", async () => {
  const flags = parseFlags(["--secure-port=0", `--data-dir=${join(root, "half-tls")}`, "--tls-cert-file=/nonexistent.crt"]);
  await expect(runServer(flags, { log: () => {}, authenticators: [] })).rejects.toThrow(
    "--tls-cert-file and --tls-private-key-file must be set together",
  );
});
