/**
 * The OIDC issuer's signing keys: discovery document and JWKS fetched over https (trusting --oidc-ca-file),
 * loaded on first use and fetched again when a token names a key id the set does not have.
 */
import { createLocalJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from "jose";
import { httpsJson } from "../../_webhook/https-json.ts";

/** A key set fetched less than this long ago is not fetched again for an unknown key id. */
const MIN_REFRESH_MS = 10_000;

export class IssuerKeys {
  #issuerUrl: string;
  #ca: string | undefined;
  #keys: JWTVerifyGetKey | undefined;
  #fetchedAt = 0;
  #loading: Promise<JWTVerifyGetKey> | undefined;

  constructor(issuerUrl: string, ca: string | undefined) {
    this.#issuerUrl = issuerUrl;
    this.#ca = ca;
  }

  async #fetchJson(url: URL, what: string): Promise<Record<string, unknown>> {
    const { status, body } = await httpsJson(url, { ca: this.#ca });
    if (status !== 200 || typeof body !== "object" || body === null) {
      throw new Error(`oidc: fetching ${what} from ${url} answered ${status}`);
    }
    return body as Record<string, unknown>;
  }

  async #load(): Promise<JWTVerifyGetKey> {
    const discoveryUrl = new URL(`${this.#issuerUrl.replace(/\/$/, "")}/.well-known/openid-configuration`);
    const discovery = await this.#fetchJson(discoveryUrl, "the discovery document");
    if (discovery.issuer !== this.#issuerUrl) {
      throw new Error(
        `oidc: issuer did not match the issuer returned by provider, expected ${JSON.stringify(this.#issuerUrl)} got ${
          JSON.stringify(discovery.issuer)
        }`,
      );
    }
    if (typeof discovery.jwks_uri !== "string") throw new Error("oidc: the discovery document has no jwks_uri");
    const jwks = await this.#fetchJson(new URL(discovery.jwks_uri), "the key set");
    this.#keys = createLocalJWKSet(jwks as unknown as JSONWebKeySet);
    this.#fetchedAt = Date.now();
    return this.#keys;
  }

  /** The current key set, loading it when there is none yet (or `refresh` and the last fetch is old enough). */
  get(refresh = false): Promise<JWTVerifyGetKey> {
    const stale = refresh && Date.now() - this.#fetchedAt >= MIN_REFRESH_MS;
    if (this.#keys && !stale) return Promise.resolve(this.#keys);
    this.#loading ??= this.#load().finally(() => (this.#loading = undefined));
    return this.#loading;
  }
}
