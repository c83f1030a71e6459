/**
 * The data of kube-system/extension-apiserver-authentication as kube's cluster authentication trust controller
 * computes it (pkg/controlplane/controller/clusterauthenticationtrust, 1.26 keys): what is stored combined with
 * what this server requires — header lists unioned (stored first), CA bundles unioned without duplicates or
 * expired certificates — so edits that drop required values are undone and additions stay.
 */
import { X509Certificate } from "node:crypto";

export interface AuthenticationTrust {
  /** --client-ca-file (or the generated cluster CA): verifies ordinary clients. */
  clientCA: string;
  /** --requestheader-client-ca-file: verifies the front proxy; empty publishes no requestheader keys. */
  requestHeaderCA: string;
  requestHeaderAllowedNames: string[];
  requestHeaderUsernameHeaders: string[];
  requestHeaderGroupHeaders: string[];
  requestHeaderExtraHeadersPrefix: string[];
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----([\s\S]+?)-----END CERTIFICATE-----/g;
/** kube's filterExpiredCerts allows five minutes of slack. */
const EXPIRY_SLACK_MS = 5 * 60 * 1000;

const LIST_KEYS = {
  "requestheader-username-headers": "requestHeaderUsernameHeaders",
  "requestheader-group-headers": "requestHeaderGroupHeaders",
  "requestheader-extra-headers-prefix": "requestHeaderExtraHeadersPrefix",
  "requestheader-allowed-names": "requestHeaderAllowedNames",
} as const;

/** The certificates (DER, base64) of a PEM bundle; blocks that are not certificates are dropped. */
function certificatesOf(bundle: string | undefined): string[] {
  const ders: string[] = [];
  for (const [, body] of (bundle ?? "").matchAll(PEM_CERTIFICATE)) {
    const der = body!.replace(/\s+/g, "");
    try {
      new X509Certificate(Buffer.from(der, "base64"));
      ders.push(der);
    } catch {
      // An unparseable block cannot verify anyone; the required CAs are written back without it.
    }
  }
  return ders;
}

/** kube's combineCertLists: both bundles in order, unexpired, each certificate once; "" when none is left. */
function combinedBundle(stored: string | undefined, required: string, now: number): string {
  const kept: string[] = [];
  for (const der of [...certificatesOf(stored), ...certificatesOf(required)]) {
    if (kept.includes(der)) continue;
    if (Date.parse(new X509Certificate(Buffer.from(der, "base64")).validTo) <= now - EXPIRY_SLACK_MS) continue;
    kept.push(der);
  }
  return kept.map((der) => `-----BEGIN CERTIFICATE-----\n${der.match(/.{1,64}/g)!.join("\n")}\n-----END CERTIFICATE-----\n`).join("");
}

/** A stored JSON list; anything else counts as empty, so the required values come back. */
function storedList(value: string | undefined): string[] {
  try {
    const parsed: unknown = JSON.parse(value ?? "[]");
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === "string") : [];
  } catch {
    return [];
  }
}

/** kube's getConfigMapDataFor over combinedClusterAuthenticationInfo(stored, required). */
export function authenticationTrustData(
  stored: Record<string, string>,
  required: AuthenticationTrust,
  now = Date.now(),
): Record<string, string> {
  const data: Record<string, string> = {};
  const clientCA = combinedBundle(stored["client-ca-file"], required.clientCA, now);
  if (clientCA) data["client-ca-file"] = clientCA;
  const requestHeaderCA = combinedBundle(stored["requestheader-client-ca-file"], required.requestHeaderCA, now);
  if (!requestHeaderCA) return data;
  for (const [key, field] of Object.entries(LIST_KEYS)) {
    data[key] = JSON.stringify([...new Set([...storedList(stored[key]), ...required[field]])]);
  }
  data["requestheader-client-ca-file"] = requestHeaderCA;
  return data;
}
