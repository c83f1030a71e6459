import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { renderKubeconfig, serverUrl, writeKubeconfig } from "./kubeconfig.ts";

const credentials = { caPem: "CA PEM\n", clientCertPem: "CERT PEM\n", clientKeyPem: "KEY PEM\n" };
const dir = mkdtempSync(join(tmpdir(), "kubun-kubeconfig-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("renderKubeconfig() embeds the credentials base64-encoded under kubun/kubun/admin", () => {
  const config = parse(renderKubeconfig("https://127.0.0.1:6443", credentials));
  expect(config).toEqual({
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: "kubun", cluster: { server: "https://127.0.0.1:6443", "certificate-authority-data": btoa("CA PEM\n") } }],
    users: [{ name: "admin", user: { "client-certificate-data": btoa("CERT PEM\n"), "client-key-data": btoa("KEY PEM\n") } }],
    contexts: [{ name: "kubun", context: { cluster: "kubun", user: "admin" } }],
    "current-context": "kubun",
    preferences: {},
  });
});

test("serverUrl() brackets IPv6 and dials loopback for wildcard bind addresses", () => {
  expect(serverUrl("10.0.0.5", 6443)).toBe("https://10.0.0.5:6443");
  expect(serverUrl("::1", 7443)).toBe("https://[::1]:7443");
  expect(serverUrl("0.0.0.0", 6443)).toBe("https://127.0.0.1:6443");
  expect(serverUrl("::", 6443)).toBe("https://[::1]:6443");
});

test("writeKubeconfig() leaves the file readable by its owner only", async () => {
  const path = join(dir, "admin.kubeconfig");
  await writeKubeconfig(path, "https://localhost:1", credentials);
  expect(statSync(path).mode & 0o777).toBe(0o600);
  expect(parse(readFileSync(path, "utf8")).clusters[0].cluster.server).toBe("https://localhost:1");
});

test("writeKubeconfig() replaces the file in one step and leaves no temporary file behind", async () => {
  const dir = mkdtempSync(join(tmpdir(), "kubun-kubeconfig-atomic-"));
  try {
    const path = join(dir, "admin.kubeconfig");
    const options = { caPem: "ca", clientCertPem: "cert", clientKeyPem: "key" };
    await writeKubeconfig(path, "https://127.0.0.1:1", options);
    await writeKubeconfig(path, "https://127.0.0.1:2", options);
    expect(readFileSync(path, "utf8")).toContain("server: https://127.0.0.1:2");
    expect(readdirSync(dir)).toEqual(["admin.kubeconfig"]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
