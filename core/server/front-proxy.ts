/**
 * The front-proxy side of the configuration: which client certificate the aggregator presents, and, when no
 * --requestheader-client-ca-file is given, trusting this server's own front-proxy CA with kubeadm's header names, so
 * one kubun can serve as another's aggregated server.
 */
import { readFile } from "node:fs/promises";
import type { ServerConfig } from "../config/mod.ts";
import { frontProxyFiles } from "./pki.ts";
import type { ProxyClientCertificate } from "../aggregator/backend-request.ts";

export function withFrontProxyDefaults(config: ServerConfig): ServerConfig {
  if (config.requestheaderClientCaFile !== "") return config;
  return {
    ...config,
    requestheaderClientCaFile: frontProxyFiles(config.dataDir).caCert,
    requestheaderAllowedNames: config.requestheaderAllowedNames.length > 0 ? config.requestheaderAllowedNames : ["front-proxy-client"],
    requestheaderUsernameHeaders: config.requestheaderUsernameHeaders.length > 0 ? config.requestheaderUsernameHeaders : ["X-Remote-User"],
    requestheaderGroupHeaders: config.requestheaderGroupHeaders.length > 0 ? config.requestheaderGroupHeaders : ["X-Remote-Group"],
    requestheaderExtraHeadersPrefix: config.requestheaderExtraHeadersPrefix.length > 0
      ? config.requestheaderExtraHeadersPrefix
      : ["X-Remote-Extra-"],
  };
}

/** --proxy-client-cert-file/--proxy-client-key-file, or the certificate generated in the data dir. */
export async function proxyClientCertificate(config: ServerConfig, generated: ProxyClientCertificate): Promise<ProxyClientCertificate> {
  if (!config.proxyClientCertFile && !config.proxyClientKeyFile) return generated;
  if (!config.proxyClientCertFile || !config.proxyClientKeyFile) {
    throw new Error("--proxy-client-cert-file and --proxy-client-key-file must be set together");
  }
  return { certPem: await readFile(config.proxyClientCertFile, "utf8"), keyPem: await readFile(config.proxyClientKeyFile, "utf8") };
}
