/**
 * The user an OIDC ID token names (spec 5.3, kube's oidc authenticator): the username claim with its prefix
 * (default `<issuer>#` unless the claim is `email`; `-` for none), an `email` claim only when `email_verified`
 * is not false, the groups claim (a string or a list) with its prefix, and the required claims.
 */
import type { JWTPayload } from "jose";
import type { UserInfo } from "../../../plugins/sdk.ts";

export interface ClaimRules {
  issuerUrl: string;
  usernameClaim: string;
  /** The --oidc-username-prefix value as given ("" = default, "-" = none). */
  usernamePrefix: string;
  groupsClaim: string;
  groupsPrefix: string;
  /** key=value pairs. */
  requiredClaims: string[];
}

export function effectiveUsernamePrefix(rules: Pick<ClaimRules, "issuerUrl" | "usernameClaim" | "usernamePrefix">): string {
  if (rules.usernamePrefix === "-") return "";
  if (rules.usernamePrefix !== "") return rules.usernamePrefix;
  return rules.usernameClaim === "email" ? "" : `${rules.issuerUrl}#`;
}

function requiredClaimProblem(payload: JWTPayload, pair: string): string | undefined {
  const equals = pair.indexOf("=");
  const [key, want] = equals === -1 ? [pair, ""] : [pair.slice(0, equals), pair.slice(equals + 1)];
  if (!(key in payload)) return `oidc: required claim ${key} not present in ID token`;
  const got = payload[key];
  if (typeof got !== "string") return `oidc: parse claim ${key}: expected a string`;
  if (got !== want) return `oidc: required claim ${key} value does not match. Got = ${got}, want = ${want}`;
  return undefined;
}

function groupsOf(payload: JWTPayload, claim: string): string[] | string {
  if (claim === "" || !(claim in payload)) return [];
  const value = payload[claim];
  if (typeof value === "string") return [value];
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value as string[];
  return `oidc: parse groups claim "${claim}": expected a string or a list of strings`;
}

/** The user, or the reason the token's claims do not name one. */
export function userFromClaims(payload: JWTPayload, rules: ClaimRules): UserInfo | string {
  const name = payload[rules.usernameClaim];
  if (name === undefined) return `oidc: parse username claims "${rules.usernameClaim}": claim not present`;
  if (typeof name !== "string") return `oidc: parse username claims "${rules.usernameClaim}": expected a string`;
  if (rules.usernameClaim === "email" && "email_verified" in payload) {
    if (typeof payload.email_verified !== "boolean") return "oidc: parse 'email_verified' claim: expected a boolean";
    if (!payload.email_verified) return `oidc: email not verified`;
  }
  const groups = groupsOf(payload, rules.groupsClaim);
  if (typeof groups === "string") return groups;
  for (const pair of rules.requiredClaims) {
    const problem = requiredClaimProblem(payload, pair);
    if (problem) return problem;
  }
  return { username: effectiveUsernamePrefix(rules) + name, groups: groups.map((g) => rules.groupsPrefix + g) };
}
