import { expect, test } from "bun:test";
import { request } from "../../../core/auth/rbac/testing.ts";
import { type SendReview, webhookAuthorizer } from "./authorizer.ts";

const quiet = { info() {}, warn() {}, error() {} };
const answer = (status: Record<string, unknown>, httpStatus = 200) => ({
  status: httpStatus,
  body: { apiVersion: "authorization.k8s.io/v1beta1", kind: "SubjectAccessReview", status },
});

function recording(replies: (() => Promise<{ status: number; body: unknown }>)[]): { send: SendReview; sent: Record<string, unknown>[] } {
  const sent: Record<string, unknown>[] = [];
  return {
    sent,
    send: (review) => {
      sent.push(review);
      return replies[Math.min(sent.length, replies.length) - 1]!();
    },
  };
}

test("answers are cached per attributes: allowed for the authorized TTL, the rest for the unauthorized TTL", async () => {
  let now = 0;
  const webhook = recording([async () => answer({ allowed: true }), async () => answer({ allowed: false, reason: "no" })]);
  const authorizer = webhookAuthorizer(webhook.send, {
    version: "v1beta1",
    authorizedTtlMs: 1000,
    unauthorizedTtlMs: 100,
    log: quiet,
    now: () => now,
  });
  expect(await authorizer.authorize(request())).toEqual({ decision: "Allow" });
  expect(await authorizer.authorize(request({ verb: "delete" }))).toEqual({ decision: "NoOpinion", reason: "no" });
  now = 500;
  expect((await authorizer.authorize(request())).decision).toBe("Allow");
  expect((await authorizer.authorize(request({ verb: "delete" }))).decision).toBe("NoOpinion");
  expect(webhook.sent.map((r) => (r.spec as { resourceAttributes: { verb: string } }).resourceAttributes.verb)).toEqual([
    "get",
    "delete",
    "delete",
  ]);
});

test("a webhook that cannot be reached or answers nonsense gives no opinion with the failure as reason, and is asked again", async () => {
  const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" });
  const webhook = recording([() => Promise.reject(refused), async () => ({ status: 200, body: { kind: "Status" } })]);
  const authorizer = webhookAuthorizer(webhook.send, { version: "v1", authorizedTtlMs: 1000, unauthorizedTtlMs: 1000, log: quiet });
  expect(await authorizer.authorize(request())).toEqual({
    decision: "NoOpinion",
    reason: "the authorization webhook failed: connect ECONNREFUSED 127.0.0.1:1",
  });
  expect((await authorizer.authorize(request())).reason).toStartWith(
    "the authorization webhook failed: the authorization webhook answered undefined Status",
  );
  expect(webhook.sent).toHaveLength(2);
});

test("connection resets and HTTP 500 are retried with backoff, up to five attempts", async () => {
  const reset = Object.assign(new Error("socket hang up"), { code: "ECONNRESET" });
  const webhook = recording([() => Promise.reject(reset), async () => answer({}, 500), async () => answer({ allowed: true })]);
  const authorizer = webhookAuthorizer(webhook.send, {
    version: "v1",
    authorizedTtlMs: 0,
    unauthorizedTtlMs: 0,
    log: quiet,
    initialBackoffMs: 1,
  });
  expect(await authorizer.authorize(request())).toEqual({ decision: "Allow" });
  expect(webhook.sent).toHaveLength(3);
  const failing = recording([async () => answer({}, 500)]);
  const gives = webhookAuthorizer(failing.send, {
    version: "v1",
    authorizedTtlMs: 0,
    unauthorizedTtlMs: 0,
    log: quiet,
    initialBackoffMs: 1,
  });
  expect((await gives.authorize(request())).reason).toBe("the authorization webhook failed: the authorization webhook answered HTTP 500");
  expect(failing.sent).toHaveLength(5);
});
