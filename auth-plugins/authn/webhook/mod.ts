/**
 * Token webhook (spec 5.4): asks a remote service to review bearer tokens with a TokenReview. Its decisions are
 * cached for --authentication-token-webhook-cache-ttl; a webhook that cannot be reached or breaks the protocol makes
 * the token invalid (401), and that failure is not cached.
 */
import { defineAuthenticator } from "../../../plugins/sdk.ts";
import { DecisionCache } from "./cache.ts";
import { httpsJson } from "../../_webhook/https-json.ts";
import { readWebhookConfig } from "../../_webhook/config.ts";
import { readTokenReviewReply, tokenReviewRequest } from "./review.ts";

const VERSIONS = new Set(["v1", "v1beta1"]);

export default defineAuthenticator(async ({ config, log }) => {
  const version = config.authenticationTokenWebhookVersion.replace(/^authentication\.k8s\.io\//, "");
  if (!VERSIONS.has(version)) {
    throw new Error(
      `--authentication-token-webhook-version: unsupported version ${config.authenticationTokenWebhookVersion}, use v1 or v1beta1`,
    );
  }
  const target = await readWebhookConfig(config.authenticationTokenWebhookConfigFile);
  const cache = new DecisionCache(config.authenticationTokenWebhookCacheTtlMs);
  return {
    async authenticateToken(token, audiences) {
      const cached = cache.get(token, audiences);
      if (cached) return cached;
      let decision;
      try {
        const reply = await httpsJson(target.url, { ...target, method: "POST", body: tokenReviewRequest(version, token, audiences) });
        decision = readTokenReviewReply(version, reply.status, reply.body, audiences);
      } catch (error) {
        log.warn(`token webhook ${target.url.origin} failed: ${(error as Error).message}`);
        return { kind: "error", message: "the token webhook failed" };
      }
      cache.set(token, audiences, decision);
      return decision;
    },
  };
});
