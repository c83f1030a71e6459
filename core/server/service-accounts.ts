/**
 * What the server itself needs for service account tokens: the keys (generated on first start), the
 * serviceaccounts/token handler and the issuer discovery documents.
 */
import { apiAudiences } from "../auth/authentication.ts";
import type { ReadOnlyClient } from "../api/client.ts";
import { loadServiceAccountKeys, type SigningKey } from "../auth/service-account/keys.ts";
import type { ServerConfig } from "../config/mod.ts";
import type { Handler } from "./handlers/context.ts";
import { tokenRequestHandler } from "./handlers/token-request.ts";
import { type IssuerDiscovery, issuerDiscovery } from "./issuer-discovery.ts";
import { virtualHandlerKey } from "./virtual-handlers.ts";

export interface ServiceAccountServing {
  /** Entries for the virtual handler map. */
  handlers: [string, Handler][];
  /** Absent when the issuer is not an https URL (kube skips discovery then). */
  discovery?: IssuerDiscovery;
  /** Also signs legacy token Secrets (the serviceaccount-token controller). */
  signingKey: SigningKey;
}

export async function serviceAccountServing(config: ServerConfig, client: ReadOnlyClient): Promise<ServiceAccountServing> {
  const keys = await loadServiceAccountKeys(config);
  const issuer = config.serviceAccountIssuer[0];
  if (!issuer) throw new Error("--service-account-issuer must not be empty");
  const tokenRequest = tokenRequestHandler(client, {
    issuer,
    apiAudiences: apiAudiences(config),
    maxExpirationSeconds: Math.floor(config.serviceAccountMaxTokenExpirationMs / 1000),
    signingKey: keys.signing,
  });
  return {
    handlers: [[virtualHandlerKey("", "serviceaccounts", "token"), tokenRequest]],
    discovery: issuerDiscovery(issuer, keys.verifying),
    signingKey: keys.signing,
  };
}
