/**
 * The TokenReview exchanged with the webhook (spec 2.6, 5.4): the request in the configured version, and the
 * reply read as kube does: same version, authenticated → user, not authenticated → the error text or, without
 * one, no opinion (the generic Unauthorized).
 */
import type { Authentication, UserInfo } from "../../../plugins/sdk.ts";

export function tokenReviewRequest(version: string, token: string, audiences: string[]): Record<string, unknown> {
  return {
    apiVersion: `authentication.k8s.io/${version}`,
    kind: "TokenReview",
    metadata: { creationTimestamp: null },
    spec: audiences.length > 0 ? { token, audiences } : { token },
    status: { user: {} },
  };
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function userOf(raw: Record<string, unknown>): UserInfo {
  const user: UserInfo = { username: String(raw.username ?? ""), groups: stringList(raw.groups) };
  if (typeof raw.uid === "string" && raw.uid !== "") user.uid = raw.uid;
  if (raw.extra && typeof raw.extra === "object") {
    user.extra = Object.fromEntries(Object.entries(raw.extra as Record<string, unknown>).map(([k, v]) => [k, stringList(v)]));
  }
  return user;
}

/** The decision in a reply; a reply that breaks the protocol (HTTP error, other version) throws. */
export function readTokenReviewReply(version: string, status: number, body: unknown, audiences: string[]): Authentication {
  const reply = (body ?? {}) as Record<string, unknown>;
  const expected = `authentication.k8s.io/${version}`;
  if (status < 200 || status > 299) throw new Error(`the token webhook answered HTTP ${status}`);
  if (reply.apiVersion !== expected || reply.kind !== "TokenReview") {
    throw new Error(`the token webhook answered ${String(reply.apiVersion)} ${String(reply.kind)}, expected ${expected} TokenReview`);
  }
  const result = (reply.status ?? {}) as Record<string, unknown>;
  if (result.authenticated !== true) {
    return typeof result.error === "string" && result.error !== "" ? { kind: "error", message: result.error } : { kind: "not-mine" };
  }
  const granted = stringList(result.audiences);
  const valid = granted.length === 0 ? audiences : audiences.filter((a) => granted.includes(a));
  if (audiences.length > 0 && valid.length === 0) return { kind: "not-mine" };
  const user = userOf((result.user ?? {}) as Record<string, unknown>);
  if (user.username === "") return { kind: "error", message: "the token webhook authenticated the token without a username" };
  return { kind: "user", user, audiences: valid };
}
