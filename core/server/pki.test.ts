import { afterAll, expect, test } from "bun:test";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { listenHttps } from "../runtime/listener.ts";
import { x509 } from "../runtime/x509.ts";
import { serverUrl, writeKubeconfig } from "./kubeconfig.ts";
import { DEFAULT_SERVING_HOSTS, ensureCertificates, issueClientCertificate } from "./pki.ts";

const run = promisify(execFile);
const root = mkdtempSync(join(tmpdir(), "kubun-pki-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function subjectAltNames(certPem: string): string[] {
  const extension = new (x509().X509Certificate)(certPem).getExtension(x509().SubjectAlternativeNameExtension);
  return extension ? extension.names.items.map((name) => name.value) : [];
}

function freshDir(): string {
  return mkdtempSync(join(root, "data-"));
}

test("ensureCertificates() creates a CA whose signature openssl accepts on both leaves", async () => {
  const dir = freshDir();
  const pki = await ensureCertificates(dir, { hosts: [] });
  const { stdout } = await run("openssl", ["verify", "-CAfile", pki.files.caCert, pki.files.servingCert, pki.files.adminCert]);
  expect(stdout).toBe(`${pki.files.servingCert}: OK\n${pki.files.adminCert}: OK\n`);
  const { stdout: subject } = await run("openssl", ["x509", "-in", pki.files.adminCert, "-noout", "-subject"]);
  expect(subject.trim()).toBe("subject=O = system:masters, CN = admin");
});

test("the serving certificate covers the in-cluster names plus the extra hosts", async () => {
  const pki = await ensureCertificates(freshDir(), { hosts: ["10.1.2.3", "kubun.example"] });
  expect(subjectAltNames(pki.serving.certPem)).toEqual([...DEFAULT_SERVING_HOSTS, "10.1.2.3", "kubun.example"]);
});

test("private keys are written with mode 0600", async () => {
  const pki = await ensureCertificates(freshDir(), { hosts: [] });
  for (const path of [pki.files.caKey, pki.files.servingKey, pki.files.adminKey]) expect(statSync(path).mode & 0o777).toBe(0o600);
});

test("a second start reuses every file when the hosts are still covered", async () => {
  const dir = freshDir();
  const first = await ensureCertificates(dir, { hosts: ["10.1.2.3"] });
  const second = await ensureCertificates(dir, { hosts: [] });
  expect(second.caPem).toBe(first.caPem);
  expect(second.serving).toEqual(first.serving);
  expect(second.admin).toEqual(first.admin);
});

test("a new host reissues only the serving certificate, from the same CA", async () => {
  const dir = freshDir();
  const first = await ensureCertificates(dir, { hosts: [] });
  const second = await ensureCertificates(dir, { hosts: ["192.168.7.7"] });
  expect(second.caPem).toBe(first.caPem);
  expect(second.admin).toEqual(first.admin);
  expect(second.serving.certPem).not.toBe(first.serving.certPem);
  expect(subjectAltNames(second.serving.certPem)).toContain("192.168.7.7");
});

test("a leaf signed by a replaced CA is reissued", async () => {
  const dir = freshDir();
  const first = await ensureCertificates(dir, { hosts: [] });
  rmSync(join(dir, "ca.crt"));
  rmSync(join(dir, "ca.key"));
  const second = await ensureCertificates(dir, { hosts: [] });
  expect(second.caPem).not.toBe(first.caPem);
  expect(second.admin.certPem).not.toBe(first.admin.certPem);
  await run("openssl", ["verify", "-CAfile", second.files.caCert, second.files.adminCert, second.files.servingCert]);
});

test("a leaf expiring within the renewal margin is reissued, and the others are kept", async () => {
  const dir = freshDir();
  const first = await ensureCertificates(dir, { hosts: [] });
  const soon = await issueClientCertificate(await first.authority(), { commonName: "admin", organizations: ["system:masters"], days: 10 });
  writeFileSync(first.files.adminCert, soon.certPem);
  writeFileSync(first.files.adminKey, soon.keyPem);
  const second = await ensureCertificates(dir, { hosts: [] });
  expect(second.admin.certPem).not.toBe(soon.certPem);
  expect(second.serving).toEqual(first.serving);
  await run("openssl", ["verify", "-CAfile", second.files.caCert, second.files.adminCert]);
});

test("kubectl trusts the serving certificate and presents the admin certificate from the kubeconfig", async () => {
  const dir = freshDir();
  const pki = await ensureCertificates(dir, { hosts: [] });
  const listener = await listenHttps(
    async (request, conn) => Response.json({ path: new URL(request.url).pathname, user: conn.peerCertificate }),
    { host: "127.0.0.1", port: 0, key: pki.serving.keyPem, cert: pki.serving.certPem, clientCA: pki.caPem },
  );
  try {
    const kubeconfig = join(dir, "admin.kubeconfig");
    await writeKubeconfig(kubeconfig, serverUrl("127.0.0.1", listener.port), {
      caPem: pki.caPem,
      clientCertPem: pki.admin.certPem,
      clientKeyPem: pki.admin.keyPem,
    });
    const { stdout } = await run("/usr/bin/kubectl", ["--kubeconfig", kubeconfig, "get", "--raw", "/x"]);
    expect(JSON.parse(stdout)).toMatchObject({
      path: "/x",
      user: { commonName: "admin", organizations: ["system:masters"], verified: true },
    });
  } finally {
    await listener.close();
  }
});

test("issueClientCertificate() makes certificates that verify against the data directory's CA", async () => {
  const dir = freshDir();
  const pki = await ensureCertificates(dir, { hosts: [] });
  const issued = await issueClientCertificate(await pki.authority(), { commonName: "jane", organizations: ["dev", "qa"], days: 30 });
  const certPath = join(dir, "jane.crt");
  writeFileSync(certPath, issued.certPem);
  await run("openssl", ["verify", "-CAfile", pki.files.caCert, certPath]);
  const { stdout } = await run("openssl", ["x509", "-in", certPath, "-noout", "-subject", "-ext", "extendedKeyUsage"]);
  expect(stdout).toContain("subject=O = dev, O = qa, CN = jane");
  expect(stdout).toContain("TLS Web Client Authentication");
});
