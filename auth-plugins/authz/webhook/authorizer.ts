/**
 * The Webhook authorizer (kube's plugin/pkg/authorizer/webhook): asks a remote service with a SubjectAccessReview.
 * Answers are cached per request attributes, allowed ones for the authorized TTL and the rest for the unauthorized
 * TTL; transient failures are retried with exponential backoff; a webhook that fails gives no opinion, with the
 * failure as the reason (never cached).
 */
import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Attributes, Authorizer, PluginLogger } from "../../../plugins/sdk.ts";
import { ExpiringCache } from "./cache.ts";
import { decisionOf, readReviewReply, reviewRequest, reviewSpec, type ReviewStatus } from "./review.ts";

export type SendReview = (review: Record<string, unknown>) => Promise<{ status: number; body: unknown }>;

export interface WebhookAuthorizerOptions {
  version: string;
  authorizedTtlMs: number;
  unauthorizedTtlMs: number;
  log: PluginLogger;
  /** First retry delay (kube: 500 ms), growing 1.5× per attempt, 5 attempts in all. */
  initialBackoffMs?: number;
  now?: () => number;
}

const CACHE_ENTRIES = 8192;
/** Larger requester-controlled attributes are not cached, so they cannot flood the cache. */
const MAX_CACHED_ATTRIBUTES_SIZE = 10_000;
const ATTEMPTS = 5;
const RETRIED_STATUSES = new Set([429, 500, 504]);

function shouldCache(a: Attributes): boolean {
  const size = [a.namespace, a.verb, a.apiGroup, a.apiVersion, a.resource, a.subresource, a.name, a.path].reduce(
    (sum, s) => sum + s.length,
    0,
  );
  return size < MAX_CACHED_ATTRIBUTES_SIZE;
}

/** kube's DefaultShouldRetry: connection resets, internal errors, timeouts and throttling are worth another try. */
async function sendWithRetry(send: SendReview, review: Record<string, unknown>, initialBackoffMs: number): Promise<ReviewStatus> {
  let delay = initialBackoffMs;
  for (let attempt = 1;; attempt++) {
    try {
      const reply = await send(review);
      if (!RETRIED_STATUSES.has(reply.status) || attempt === ATTEMPTS) return readReviewReply(reply.status, reply.body);
    } catch (error) {
      if ((error as { code?: string }).code !== "ECONNRESET" || attempt === ATTEMPTS) throw error;
    }
    await sleep(delay * (1 + Math.random() * 0.2));
    delay *= 1.5;
  }
}

export function webhookAuthorizer(send: SendReview, options: WebhookAuthorizerOptions): Authorizer {
  const cache = new ExpiringCache<ReviewStatus>(CACHE_ENTRIES, options.now);
  return {
    async authorize(a) {
      const spec = reviewSpec(options.version, a);
      const key = createHash("sha256").update(JSON.stringify(spec)).digest("base64");
      const cached = cache.get(key);
      if (cached) return decisionOf(cached);
      let status: ReviewStatus;
      try {
        status = await sendWithRetry(send, reviewRequest(options.version, spec), options.initialBackoffMs ?? 500);
      } catch (error) {
        const message = (error as Error).message;
        options.log.warn(`the authorization webhook failed: ${message}`);
        return { decision: "NoOpinion", reason: `the authorization webhook failed: ${message}` };
      }
      if (shouldCache(a)) cache.set(key, status, status.allowed ? options.authorizedTtlMs : options.unauthorizedTtlMs);
      return decisionOf(status);
    },
    rulesFor() {
      return Promise.resolve({ rules: [], incomplete: true, errors: ["webhook authorizer does not support user rule resolution"] });
    },
  };
}
