/**
 * client-go's EventSourceObjectSpamFilter (tools/record/events_cache.go): a token bucket per event source and
 * involved object, 25 events at once then one every 5 minutes, over an LRU of 4096 objects. What exceeds it is
 * dropped, so a client that keeps provoking the same Event cannot fill the store with them.
 */
import type { KubeObject } from "../../api/types.ts";
import { forgetOldest } from "../../runtime/bounded.ts";

const BURST = 25;
const REFILL_PER_MS = 1 / 300_000;
const MAX_ENTRIES = 4096;

export class EventSpamFilter {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** True when the event may be written (and takes a token); false when it is spam. */
  allows(event: KubeObject): boolean {
    const source = (event.source ?? {}) as { component?: string; host?: string };
    const involved = (event.involvedObject ?? {}) as Record<string, string | undefined>;
    const key = [source.component, source.host, involved.kind, involved.namespace, involved.name, involved.uid, involved.apiVersion]
      .join("\u0000");
    const now = this.#now();
    const bucket = this.#buckets.get(key) ?? { tokens: BURST, at: now };
    this.#buckets.delete(key);
    bucket.tokens = Math.min(BURST, bucket.tokens + (now - bucket.at) * REFILL_PER_MS);
    bucket.at = now;
    this.#buckets.set(key, bucket);
    forgetOldest(this.#buckets, MAX_ENTRIES);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}
