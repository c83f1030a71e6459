/**
 * Stored objects per group-resource, for the LIST work estimate and kube's `apiserver_storage_objects` gauge
 * (kube's ObjectCountTracker, fed by the registry's periodic Count). kubun counts each collection once and then
 * follows the storage's committed events, so the figure is current rather than up to a poll period old.
 */
import { Gauge, type Registry as MetricsRegistry } from "../runtime/prom-client.ts";
import type { ResourceType } from "../api/resource-type.ts";
import { collectionPrefix, storageGroupOf } from "../registry/keys.ts";
import type { Storage, StorageEvent } from "../storage/storage.ts";
import { groupResourceKey } from "./work-estimate.ts";

export class ObjectCounts {
  /** By collection prefix (`/<group>/<resource>/`). */
  readonly #counts = new Map<string, { key: string; count: number }>();
  /** The same entries by group-resource. */
  readonly #byGroupResource = new Map<string, { key: string; count: number }>();
  readonly #storage: Storage;
  readonly #unsubscribe: () => void;
  /** The collection prefix an event was counted under last, and its entry: a burst in one collection finds it at once. */
  #lastPrefix = "";
  #lastEntry: { key: string; count: number } | undefined;

  constructor(storage: Storage, metricsRegistry: MetricsRegistry) {
    this.#storage = storage;
    // Lost watch history hid some creates and deletes: every tracked collection is counted again.
    this.#unsubscribe = storage.subscribe((event) => this.#follow(event), () => void this.#recount());
    const counts = this.#counts;
    new Gauge({
      name: "apiserver_storage_objects",
      help: "Number of stored objects at the time of last check split by kind.",
      labelNames: ["resource"],
      registers: [metricsRegistry],
      collect() {
        this.reset();
        for (const { key, count } of counts.values()) this.set({ resource: key }, count);
      },
    });
  }

  /**
   * Counts the stored types' collections (those not yet counted); kube has no count for virtual ones such as
   * componentstatuses, which list without a storage version. A resource stored as another (events.k8s.io Events,
   * whose store is the core one, eventstore.NewREST with DefaultQualifiedResource "events") is counted under that one.
   */
  async track(types: readonly ResourceType[]): Promise<void> {
    const counted = (type: ResourceType) =>
      type.verbs.includes("list") && type.storageVersionHash !== undefined && storageGroupOf(type) === type.group;
    await Promise.all(
      types.filter(counted).map(async (type) => {
        const prefix = collectionPrefix(type, "");
        if (this.#counts.has(prefix)) return;
        const count = await this.#storage.count(prefix);
        if (this.#counts.has(prefix)) return;
        const entry = { key: groupResourceKey(type.group, type.resource), count };
        this.#counts.set(prefix, entry);
        this.#byGroupResource.set(entry.key, entry);
      }),
    );
  }

  /** The count by kube's group-resource string ("configmaps", "deployments.apps"); undefined when not tracked. */
  get(groupResource: string): number | undefined {
    return this.#byGroupResource.get(groupResource)?.count;
  }

  stop(): void {
    this.#unsubscribe();
  }

  async #recount(): Promise<void> {
    await Promise.all([...this.#counts].map(async ([prefix, entry]) => {
      entry.count = await this.#storage.count(prefix).catch(() => entry.count);
    }));
  }

  #follow(event: StorageEvent): void {
    const delta = event.type === "ADDED" ? 1 : event.type === "DELETED" ? -1 : 0;
    if (delta === 0) return;
    const key = event.kv.key;
    // A key under the last prefix (`/<group>/<resource>/`) is of the same collection; entries are never replaced.
    if (this.#lastEntry && key.startsWith(this.#lastPrefix)) {
      this.#lastEntry.count += delta;
      return;
    }
    const prefix = key.slice(0, key.indexOf("/", key.indexOf("/", 1) + 1) + 1);
    const entry = this.#counts.get(prefix);
    if (!entry) return;
    entry.count += delta;
    this.#lastPrefix = prefix;
    this.#lastEntry = entry;
  }
}
