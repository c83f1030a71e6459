/**
 * The data directory's PKI: a CA, the serving certificate and the admin client certificate,
 * created on first start and reused afterwards (like kubeadm's /etc/kubernetes/pki).
 */
import { chmod, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  type CertificateAuthority,
  createCertificateAuthority,
  issueClientCertificate,
  type IssuedCertificate,
  issueServingCertificate,
  isUsableLeaf,
  loadCertificateAuthority,
  namesEveryHost,
} from "./certificates.ts";

export { type CertificateAuthority, issueClientCertificate, type IssuedCertificate } from "./certificates.ts";

/** Names every in-cluster client expects the API server certificate to carry. */
export const DEFAULT_SERVING_HOSTS = [
  "127.0.0.1",
  "::1",
  "localhost",
  "kubernetes",
  "kubernetes.default",
  "kubernetes.default.svc",
  "kubernetes.default.svc.cluster.local",
];

const CA_DAYS = 3650;
const LEAF_DAYS = 365;
// A leaf that expires within this many days is replaced at start-up.
const RENEW_MARGIN_DAYS = 30;

export interface PkiFiles {
  caCert: string;
  caKey: string;
  servingCert: string;
  servingKey: string;
  adminCert: string;
  adminKey: string;
}

export interface Pki {
  files: PkiFiles;
  /** The CA with its key, loaded on first call: a start that issues nothing never parses it. */
  authority(): Promise<CertificateAuthority>;
  caPem: string;
  serving: IssuedCertificate;
  admin: IssuedCertificate;
}

export function pkiFiles(dataDir: string): PkiFiles {
  return {
    caCert: join(dataDir, "ca.crt"),
    caKey: join(dataDir, "ca.key"),
    servingCert: join(dataDir, "apiserver.crt"),
    servingKey: join(dataDir, "apiserver.key"),
    adminCert: join(dataDir, "admin.crt"),
    adminKey: join(dataDir, "admin.key"),
  };
}

/**
 * Loads the PKI from `dataDir`, creating what is missing. The serving certificate is reissued when
 * its SANs miss one of `hosts` (plus the defaults); leaves are reissued when near expiry or signed by
 * another CA.
 */
export async function ensureCertificates(dataDir: string, options: { hosts: string[] }): Promise<Pki> {
  const files = pkiFiles(dataDir);
  const authority = await ensureAuthority(files);
  const hosts = [...new Set([...DEFAULT_SERVING_HOSTS, ...options.hosts])];
  const serving = await ensureLeaf(authority, files.servingCert, files.servingKey, {
    accept: (certPem) => namesEveryHost(certPem, hosts),
    issue: (ca) => issueServingCertificate(ca, { commonName: "kubun-apiserver", hosts, days: LEAF_DAYS }),
  });
  const admin = await ensureLeaf(authority, files.adminCert, files.adminKey, {
    accept: () => true,
    issue: (ca) => issueClientCertificate(ca, { commonName: "admin", organizations: ["system:masters"], days: LEAF_DAYS }),
  });
  return { files, authority: authority.load, caPem: authority.caPem, serving, admin };
}

/** Where the front-proxy CA and the aggregator's proxy client certificate live (kubeadm's file names). */
export function frontProxyFiles(dataDir: string): { caCert: string; caKey: string; clientCert: string; clientKey: string } {
  return {
    caCert: join(dataDir, "front-proxy-ca.crt"),
    caKey: join(dataDir, "front-proxy-ca.key"),
    clientCert: join(dataDir, "front-proxy-client.crt"),
    clientKey: join(dataDir, "front-proxy-client.key"),
  };
}

/**
 * The front-proxy CA (separate from the cluster CA, so its certificates never name users directly) and the
 * client certificate the aggregator presents to aggregated servers, created on first start like kubeadm's.
 */
export async function ensureFrontProxyCertificates(dataDir: string): Promise<{ caPem: string; client: IssuedCertificate }> {
  const files = frontProxyFiles(dataDir);
  const authority = await ensureAuthority({ caCert: files.caCert, caKey: files.caKey }, "front-proxy-ca");
  const client = await ensureLeaf(authority, files.clientCert, files.clientKey, {
    accept: () => true,
    issue: (ca) => issueClientCertificate(ca, { commonName: "front-proxy-client", days: LEAF_DAYS }),
  });
  return { caPem: authority.caPem, client };
}

interface Authority {
  caPem: string;
  load(): Promise<CertificateAuthority>;
}

async function ensureAuthority(files: { caCert: string; caKey: string }, commonName = "kubun-ca"): Promise<Authority> {
  const existing = await readPair(files.caCert, files.caKey);
  if (existing) {
    let loaded: Promise<CertificateAuthority> | undefined;
    return { caPem: existing.certPem, load: () => (loaded ??= loadCertificateAuthority(existing.certPem, existing.keyPem)) };
  }
  const created = await createCertificateAuthority(commonName, { days: CA_DAYS });
  await writePair(files.caCert, files.caKey, created);
  return { caPem: created.certPem, load: () => Promise.resolve(created) };
}

interface LeafPolicy {
  accept(certPem: string): boolean;
  issue(ca: CertificateAuthority): Promise<IssuedCertificate>;
}

async function ensureLeaf(authority: Authority, certPath: string, keyPath: string, policy: LeafPolicy): Promise<IssuedCertificate> {
  const existing = await readPair(certPath, keyPath);
  if (existing && policy.accept(existing.certPem) && isUsableLeaf(existing.certPem, authority.caPem, RENEW_MARGIN_DAYS)) return existing;
  const issued = await policy.issue(await authority.load());
  await writePair(certPath, keyPath, issued);
  return issued;
}

async function readPair(certPath: string, keyPath: string): Promise<IssuedCertificate | null> {
  try {
    return { certPem: await readFile(certPath, "utf8"), keyPem: await readFile(keyPath, "utf8") };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

async function writePair(certPath: string, keyPath: string, pair: IssuedCertificate): Promise<void> {
  await writeFile(keyPath, pair.keyPem, { mode: 0o600 });
  // writeFile keeps the mode of a file that already existed.
  await chmod(keyPath, 0o600);
  await writeFile(certPath, pair.certPem, { mode: 0o644 });
}
