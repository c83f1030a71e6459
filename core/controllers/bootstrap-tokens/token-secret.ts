/**
 * Reading bootstrap token Secrets (spec 2.10) for the token controllers: `bootstrap-token-<id>` in kube-system,
 * type `bootstrap.kubernetes.io/token`, with base64 data. An unparseable expiration counts as expired, as in kube.
 */
import { Buffer } from "node:buffer";
import type { KubeObject } from "../../api/types.ts";

export const TOKEN_NAMESPACE = "kube-system";
export const TOKEN_SECRET_TYPE = "bootstrap.kubernetes.io/token";
const TOKEN_ID = /^[a-z0-9]{6}$/;
const TOKEN_SECRET = /^[a-z0-9]{16}$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export interface BootstrapToken {
  id: string;
  secret: string;
  /** Milliseconds since the epoch; undefined when the token never expires, NaN when unparseable. */
  expiresAt?: number;
  signing: boolean;
}

export function isBootstrapTokenSecret(secret: KubeObject): boolean {
  return secret.metadata.namespace === TOKEN_NAMESPACE && (secret as { type?: string }).type === TOKEN_SECRET_TYPE;
}

/** The Secret's data value of `key` as text ("" when absent). */
function dataValue(secret: KubeObject, key: string): string {
  const value = (secret as { data?: Record<string, string> }).data?.[key];
  return value === undefined ? "" : Buffer.from(value, "base64").toString("utf8");
}

/** When the token Secret expires: undefined = never, NaN = unparseable (treated as expired). */
export function expiresAt(secret: KubeObject): number | undefined {
  const expiration = dataValue(secret, "expiration");
  if (expiration === "") return undefined;
  return RFC3339.test(expiration) ? Date.parse(expiration) : Number.NaN;
}

export function hasExpired(expiry: number | undefined, now: number): boolean {
  return expiry !== undefined && (Number.isNaN(expiry) || expiry <= now);
}

/** The token a well-formed, live (not being deleted) token Secret holds; undefined otherwise. */
export function readBootstrapToken(secret: KubeObject): BootstrapToken | undefined {
  if (!isBootstrapTokenSecret(secret) || secret.metadata.deletionTimestamp) return undefined;
  const id = dataValue(secret, "token-id");
  const tokenSecret = dataValue(secret, "token-secret");
  if (!TOKEN_ID.test(id) || !TOKEN_SECRET.test(tokenSecret) || secret.metadata.name !== `bootstrap-token-${id}`) return undefined;
  return { id, secret: tokenSecret, expiresAt: expiresAt(secret), signing: dataValue(secret, "usage-bootstrap-signing") === "true" };
}
