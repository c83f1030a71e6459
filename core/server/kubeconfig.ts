/**
 * The admin kubeconfig written beside the certificates: everything embedded, so the file alone is
 * enough for kubectl or client-go.
 */
import process from "node:process";
import { chmod, rename, writeFile } from "node:fs/promises";
import { isIPv6 } from "node:net";
import { stringify } from "yaml";

export interface KubeconfigOptions {
  caPem: string;
  clientCertPem: string;
  clientKeyPem: string;
  /** Name of the cluster entry and of the context; default "kubun". */
  clusterName?: string;
  /** Name of the user entry; default "admin". */
  userName?: string;
}

/** The `https://host:port` URL clients dial; IPv6 literals are bracketed and wildcards become loopback. */
export function serverUrl(host: string, port: number): string {
  const dialable = host === "0.0.0.0" || host === "" ? "127.0.0.1" : host === "::" ? "::1" : host;
  return `https://${isIPv6(dialable) ? `[${dialable}]` : dialable}:${port}`;
}

export function renderKubeconfig(server: string, options: KubeconfigOptions): string {
  const cluster = options.clusterName ?? "kubun";
  const user = options.userName ?? "admin";
  return stringify({
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: cluster, cluster: { server, "certificate-authority-data": base64(options.caPem) } }],
    users: [{
      name: user,
      user: { "client-certificate-data": base64(options.clientCertPem), "client-key-data": base64(options.clientKeyPem) },
    }],
    contexts: [{ name: cluster, context: { cluster, user } }],
    "current-context": cluster,
    preferences: {},
  });
}

/** Writes the kubeconfig readable by its owner only (it holds a private key). */
/** Written to a temporary file and renamed into place, so a reader never sees a half-written kubeconfig. */
export async function writeKubeconfig(path: string, server: string, options: KubeconfigOptions): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, renderKubeconfig(server, options), { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, path);
}

function base64(text: string): string {
  return Buffer.from(text).toString("base64");
}
