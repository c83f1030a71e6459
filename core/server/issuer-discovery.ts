/**
 * ServiceAccountIssuerDiscovery (kube's pkg/serviceaccount/openidmetadata.go and pkg/routes/openidmetadata.go):
 * `/.well-known/openid-configuration` and `/openid/v1/jwks` for the first service account issuer, so relying
 * parties can verify service account tokens. Served only when the issuer is an https URL, as in kube.
 */
import type { VerificationKey } from "../auth/service-account/keys.ts";

export const OPENID_CONFIGURATION_PATH = "/.well-known/openid-configuration";
export const JWKS_PATH = "/openid/v1/jwks";
const CACHE_CONTROL = "public, max-age=3600";

export interface IssuerDiscovery {
  /** The discovery document; jwks_uri points at this server as the client reached it. */
  openidConfiguration(requestUrl: URL): Response;
  jwks(): Response;
}

function isDiscoverableIssuer(issuer: string): boolean {
  try {
    const url = new URL(issuer);
    return url.protocol === "https:" && url.search === "" && url.hash === "";
  } catch {
    return false;
  }
}

function respond(body: string, contentType: string): Response {
  return new Response(body, { headers: { "Content-Type": contentType, "Cache-Control": CACHE_CONTROL } });
}

export function issuerDiscovery(issuer: string, keys: VerificationKey[]): IssuerDiscovery | undefined {
  if (!isDiscoverableIssuer(issuer) || keys.length === 0) return undefined;
  const keyset = JSON.stringify({ keys: keys.map((k) => k.jwk) });
  const algorithms = [...new Set(keys.map((k) => k.alg))].sort();
  return {
    openidConfiguration: (requestUrl) =>
      respond(
        JSON.stringify({
          issuer,
          jwks_uri: `https://${requestUrl.host}${JWKS_PATH}`,
          response_types_supported: ["id_token"],
          subject_types_supported: ["public"],
          id_token_signing_alg_values_supported: algorithms,
        }),
        "application/json",
      ),
    jwks: () => respond(keyset, "application/jwk-set+json"),
  };
}
