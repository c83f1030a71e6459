import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { x509 } from "../runtime/x509.ts";
import { issueUserKubeconfig, parseKubeconfigArgs } from "./kubeconfig-command.ts";
import { ensureCertificates } from "./pki.ts";
import { writeKubeconfig } from "./kubeconfig.ts";

const dir = mkdtempSync(join(tmpdir(), "kubun-kubeconfig-command-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("parseKubeconfigArgs() reads --user, repeated --group, --data-dir and --server in both spellings", () => {
  expect(
    parseKubeconfigArgs(["--user", "jane", "--group=dev", "--group", "ops", "--data-dir=/d", "--server", "https://h:1"], "./kubun-data"),
  ).toEqual({
    user: "jane",
    groups: ["dev", "ops"],
    dataDir: "/d",
    server: "https://h:1",
    help: false,
  });
  expect(parseKubeconfigArgs(["--user=x"], "/default").dataDir).toBe("/default");
});

test("parseKubeconfigArgs() rejects a missing --user, unknown flags and stray arguments", () => {
  expect(() => parseKubeconfigArgs([], "d")).toThrow('required flag(s) "user" not set');
  expect(() => parseKubeconfigArgs(["--user=x", "--days=3"], "d")).toThrow("unknown flag: --days");
  expect(() => parseKubeconfigArgs(["--user=x", "extra"], "d")).toThrow("does not take any arguments");
  expect(() => parseKubeconfigArgs(["--user"], "d")).toThrow("flag needs an argument: --user");
  expect(parseKubeconfigArgs(["--help"], "d").help).toBe(true);
});

test("issueUserKubeconfig() issues a certificate for the user and groups, signed by the data dir's CA", async () => {
  const pki = await ensureCertificates(dir, { hosts: [] });
  await writeKubeconfig(join(dir, "admin.kubeconfig"), "https://127.0.0.1:7443", {
    caPem: pki.caPem,
    clientCertPem: pki.admin.certPem,
    clientKeyPem: pki.admin.keyPem,
  });
  const config = parse(await issueUserKubeconfig({ user: "jane", groups: ["dev", "ops"], dataDir: dir, server: "", help: false }));
  expect(config.clusters[0].cluster.server).toBe("https://127.0.0.1:7443");
  expect(config.users[0].name).toBe("jane");
  const certificate = new (x509().X509Certificate)(Buffer.from(config.users[0].user["client-certificate-data"], "base64").toString());
  expect(certificate.subject).toBe("O=dev, O=ops, CN=jane");
  expect(await certificate.verify({ publicKey: (await pki.authority()).certificate.publicKey, signatureOnly: true })).toBe(true);
  const explicit = parse(await issueUserKubeconfig({ user: "x", groups: [], dataDir: dir, server: "https://other:1", help: false }));
  expect(explicit.clusters[0].cluster.server).toBe("https://other:1");
});

test("issueUserKubeconfig() explains a data dir without a CA", async () => {
  const empty = join(dir, "empty");
  await expect(issueUserKubeconfig({ user: "x", groups: [], dataDir: empty, server: "https://h:1", help: false })).rejects.toThrow(
    `start kubun with --data-dir ${empty} once first`,
  );
});
