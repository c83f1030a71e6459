/**
 * Webhook decisions cached for --authentication-token-webhook-cache-ttl, keyed by an HMAC of the token and the
 * audiences so no token is kept in memory in the clear.
 */
import { createHmac, randomBytes } from "node:crypto";
import type { Authentication } from "../../../plugins/sdk.ts";
import { forgetOldest } from "../../../core/runtime/bounded.ts";

const MAX_ENTRIES = 10_000;

export class DecisionCache {
  #entries = new Map<string, { decision: Authentication; expires: number }>();
  #secret = randomBytes(32);
  #ttlMs: number;
  #now: () => number;

  constructor(ttlMs: number, now: () => number = Date.now) {
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  #key(token: string, audiences: string[]): string {
    return createHmac("sha256", this.#secret).update(token).update("\0").update(audiences.join("\0")).digest("base64");
  }

  get(token: string, audiences: string[]): Authentication | undefined {
    const key = this.#key(token, audiences);
    const entry = this.#entries.get(key);
    if (entry && entry.expires > this.#now()) return entry.decision;
    if (entry) this.#entries.delete(key);
    return undefined;
  }

  set(token: string, audiences: string[], decision: Authentication): void {
    if (this.#ttlMs <= 0) return;
    this.#entries.set(this.#key(token, audiences), { decision, expires: this.#now() + this.#ttlMs });
    forgetOldest(this.#entries, MAX_ENTRIES);
  }
}
