/**
 * Bootstrap tokens (spec 2.10, 3.3; kube's plugin/pkg/auth/authenticator/token/bootstrap): `<id>.<secret>`
 * matched against the Secret `bootstrap-token-<id>` in kube-system. Every mismatch (missing, deleted, wrong
 * type or value, expired, not for authentication, bad extra groups) is "not mine", logged like kube, so the
 * bearer step turns it into a 401 "invalid bearer token".
 */
import { timingSafeEqual } from "node:crypto";
import { type Authentication, NOT_MINE, type TokenAuthenticator } from "../../../core/auth/authenticator.ts";
import type { PluginLogger } from "../../../core/auth/plugin-context.ts";
import type { KubeObject } from "../../../core/api/types.ts";

export const BOOTSTRAP_TOKEN_SECRET_TYPE = "bootstrap.kubernetes.io/token";
export const BOOTSTRAPPERS_GROUP = "system:bootstrappers";
const TOKEN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
const EXTRA_GROUP = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Looks up `bootstrap-token-<id>` in kube-system; null when absent. */
export type BootstrapSecretLookup = (name: string) => Promise<KubeObject | null>;

export interface BootstrapTokenOptions {
  log: PluginLogger;
  now?: () => Date;
}

export function bootstrapTokenAuthenticator(lookUp: BootstrapSecretLookup, options: BootstrapTokenOptions): TokenAuthenticator {
  const now = options.now ?? (() => new Date());
  // A token of another shape is not ours at once, without a promise: the union asks the next authenticator.
  const authenticateMatched = async (match: RegExpExecArray): Promise<Authentication> => {
    const [, id, secretPart] = match as unknown as [string, string, string];
    const name = `bootstrap-token-${id}`;
    const secret = await lookUp(name);
    if (!secret) return { kind: "not-mine" };
    const reject = (why: string): Authentication => {
      options.log.info(`Bootstrap secret kube-system/${name} ${why}`);
      return { kind: "not-mine" };
    };
    if (secret.metadata.deletionTimestamp) return reject("is deleted and awaiting removal");
    const data = (secret as { data?: Record<string, string> }).data;
    if ((secret as { type?: string }).type !== BOOTSTRAP_TOKEN_SECRET_TYPE || !data) {
      return reject(`has invalid type, expected ${BOOTSTRAP_TOKEN_SECRET_TYPE}.`);
    }
    const value = (key: string) => (data[key] === undefined ? "" : Buffer.from(data[key]!, "base64").toString("utf8"));
    if (!sameSecret(value("token-secret"), secretPart)) return reject("has invalid value for key token-secret.");
    if (value("token-id") !== id) return reject(`has invalid value for key token-id, expected ${id}.`);
    if (hasExpired(value("expiration"), now())) return reject("has expired.");
    if (value("usage-bootstrap-authentication") !== "true") return reject("not marked usage-bootstrap-authentication=true.");
    const groups = groupsOf(value("auth-extra-groups"));
    if (typeof groups === "string") return reject(`has invalid value for key auth-extra-groups: ${groups}.`);
    return { kind: "user", user: { username: `system:bootstrap:${id}`, groups } };
  };
  return {
    authenticateToken(token) {
      const match = TOKEN.exec(token);
      return match ? authenticateMatched(match) : NOT_MINE;
    },
  };
}

function sameSecret(stored: string, presented: string): boolean {
  const a = Buffer.from(stored);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** An unparseable expiration counts as expired, as in kube. */
function hasExpired(expiration: string, now: Date): boolean {
  if (expiration === "") return false;
  const at = RFC3339.test(expiration) ? Date.parse(expiration) : Number.NaN;
  return Number.isNaN(at) || at <= now.getTime();
}

/** system:bootstrappers plus the extra groups, deduplicated and sorted; an error message for a bad name. */
function groupsOf(extra: string): string[] | string {
  const groups = new Set([BOOTSTRAPPERS_GROUP]);
  if (extra !== "") {
    for (const group of extra.split(",")) {
      if (!EXTRA_GROUP.test(group)) {
        return `bootstrap group ${JSON.stringify(group)} is invalid (must match \\Asystem:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]\\z)`;
      }
      groups.add(group);
    }
  }
  return [...groups].sort();
}
