/**
 * client-go's events.k8s.io broadcaster (tools/events/event_broadcaster.go recordToSink): Events of one action,
 * reason, reporting controller and regarding object are isomorphic, whatever their note or type. The first is
 * created; the second turns it into a series (count 2, lastObservedTime) by a PATCH of the first; later ones only
 * count in memory until the broadcaster's 30-minute heartbeat, which is not kept here. An entry older than 6 minutes
 * (finishTime) is forgotten, so the next isomorphic Event is created anew. The cache is bounded like the others.
 */
import type { KubeObject } from "../../api/types.ts";
import { forgetOldest } from "../../runtime/bounded.ts";
import { microTime } from "./_lease-record.ts";

const FINISH_MS = 6 * 60_000;
const CACHE_SIZE = 4096;

export interface SeriesWrite {
  /** Create `event`, or patch the Event named `name` with `series`. */
  create?: KubeObject;
  patch?: { namespace: string; name: string; series: { count: number; lastObservedTime: string } };
}

interface Entry {
  namespace: string;
  name: string;
  count: number;
  lastObserved: number;
}

/** getKey: the Event without its note and type. */
function isomorphicKey(event: KubeObject): string {
  const regarding = (event.involvedObject ?? {}) as Record<string, unknown>;
  const ref = ["kind", "namespace", "name", "uid", "apiVersion", "resourceVersion", "fieldPath"].map((k) => regarding[k] ?? "");
  return JSON.stringify([event.action, event.reason, event.reportingComponent, ...ref]);
}

export class EventSeries {
  readonly #cache = new Map<string, Entry>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** The write an events.k8s.io Event amounts to; none when it only counts. */
  observe(event: KubeObject): SeriesWrite {
    const now = this.#now();
    const key = isomorphicKey(event);
    const entry = this.#cache.get(key);
    if (!entry || now - entry.lastObserved > FINISH_MS) {
      this.#cache.delete(key);
      this.#cache.set(key, { namespace: String(event.metadata.namespace), name: String(event.metadata.name), count: 1, lastObserved: now });
      forgetOldest(this.#cache, CACHE_SIZE);
      return { create: event };
    }
    entry.count++;
    entry.lastObserved = now;
    if (entry.count > 2) return {};
    return { patch: { namespace: entry.namespace, name: entry.name, series: { count: 2, lastObservedTime: microTime(new Date(now)) } } };
  }
}
