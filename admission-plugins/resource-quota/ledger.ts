/**
 * Charges a write against the ResourceQuotas of its namespace. Evaluations of one namespace run one at a time
 * and write quota status with the read resourceVersion as precondition, so concurrent creates cannot overshoot.
 * A quota whose status.hard differs from spec.hard has its usage counted here first; deletes give their usage back.
 * Such a quota gets its status as soon as it is seen, as kube's ResourceQuotaController syncResourceQuota gives a new or
 * changed quota status.hard and status.used without waiting for a write in the namespace (kubectl describe quota).
 */
import { isConflict } from "../../core/api/errors.ts";
import type { KubeObject } from "../../core/api/types.ts";
import type { Catalog } from "../../core/registry/catalog.ts";
import { listObjects } from "../../core/registry/list.ts";
import type { Registry } from "../../core/registry/registry.ts";
import { addQuantities, compareQuantities, formatQuantity, quantityOrZero, ZERO_QUANTITY } from "../../core/api/quantity.ts";
import { collectionPrefix } from "../../core/registry/keys.ts";
import { QuotaPresence } from "./quota-presence.ts";
import { countKey, type Usage, usageOf } from "./usage.ts";

export interface QuotaStatus {
  hard?: Record<string, string>;
  used?: Record<string, string>;
}

const MAX_ATTEMPTS = 8;

export class QuotaLedger {
  readonly #registry: Registry;
  readonly #catalog: Catalog;
  readonly #queues = new Map<string, Promise<unknown>>();
  readonly #presence: QuotaPresence;

  constructor(registry: Registry, catalog: Catalog) {
    this.#registry = registry;
    this.#catalog = catalog;
    this.#presence = new QuotaPresence(
      (onEvent) => registry.follow(collectionPrefix(this.#quotaType(), ""), onEvent),
      ({ object }) => {
        if (!observed(object)) void this.serialize(String(object.metadata.namespace), () => this.#settle(object)).catch(() => {});
      },
    );
  }

  /** Writes the usage of a quota not yet observed; a conflict means it changed, and its next event settles it. */
  async #settle(quota: KubeObject): Promise<void> {
    const found = (await this.quotas(String(quota.metadata.namespace))).find((q) => q.object.metadata.uid === quota.metadata.uid);
    if (found && !observed(found.object)) await this.record(found.object, found.used);
  }

  /** Runs `evaluate` alone for the namespace; it may throw to refuse. */
  serialize<T>(namespace: string, evaluate: () => Promise<T>): Promise<T> {
    const previous = this.#queues.get(namespace) ?? Promise.resolve();
    const next = previous.catch(() => {}).then(evaluate);
    this.#queues.set(namespace, next);
    void next.finally(() => {
      if (this.#queues.get(namespace) === next) this.#queues.delete(namespace);
    }).catch(() => {});
    return next;
  }

  /** True when `namespace` surely holds no quota (the followed copy, as kube's quotaAccessor lister). */
  surelyNone(namespace: string): boolean {
    return this.#presence.surelyNone(namespace);
  }

  /** The namespace's quotas with current usage, each with the stored object for the status write. */
  async quotas(namespace: string): Promise<{ object: KubeObject; hard: Usage; used: Usage }[]> {
    // kube's GetQuotas reads its lister first; quotas that exist are read from storage for their current status.
    if (this.surelyNone(namespace)) return [];
    const quotas = await listObjects(this.#quotaStore(), { namespace, revision: 0, limit: 0 });
    const result = [];
    for (const object of quotas.list.items) {
      const hard = numbers((object.spec as { hard?: Record<string, string> } | undefined)?.hard);
      const used = observed(object)
        ? numbers(((object.status ?? {}) as QuotaStatus).used)
        : await this.#countUsage(namespace, Object.keys(hard));
      result.push({ object, hard, used });
    }
    return result;
  }

  /** Writes new usage; false when the quota changed meanwhile (the caller evaluates again). */
  async record(quota: KubeObject, used: Usage): Promise<boolean> {
    const hard = (quota.spec as { hard?: Record<string, string> }).hard ?? {};
    const status: QuotaStatus = {
      hard: { ...hard },
      used: Object.fromEntries(Object.keys(hard).map((k) => [k, formatQuantity(used[k] ?? ZERO_QUANTITY)])),
    };
    try {
      await this.#quotaStore().update(
        quota.metadata.namespace!,
        String(quota.metadata.name),
        (current) => ({ ...current!, status, metadata: { ...current!.metadata, resourceVersion: quota.metadata.resourceVersion } }),
        { subresource: "status" },
      );
      return true;
    } catch (e) {
      if (isConflict(e)) return false;
      throw e;
    }
  }

  get maxAttempts(): number {
    return MAX_ATTEMPTS;
  }

  #quotaType() {
    return this.#catalog.byGroupVersionResource("", "v1", "resourcequotas")!;
  }

  #quotaStore() {
    return this.#registry.store(this.#quotaType());
  }

  /** Usage of every constrained resource, counted from what the namespace holds now. */
  async #countUsage(namespace: string, keys: string[]): Promise<Usage> {
    const used: Usage = Object.fromEntries(keys.map((k) => [k, ZERO_QUANTITY]));
    for (const type of this.#catalog.all().filter((t) => t.namespaced && t.verbs.includes("create") && t.storageVersionHash)) {
      if (this.#catalog.preferredVersion(type.group) !== type.version && type.group !== "") continue;
      const probe = usageOf(type.group, type.resource, { metadata: {} });
      if (!keys.some((k) => k in probe || k === countKey(type.group, type.resource))) continue;
      const { list } = await listObjects(this.#registry.store(type), { namespace, revision: 0, limit: 0 });
      for (const item of list.items) {
        for (const [key, value] of Object.entries(usageOf(type.group, type.resource, item))) {
          if (key in used) used[key] = addQuantities(used[key]!, value);
        }
      }
    }
    return used;
  }
}

export function numbers(list: Record<string, string> | undefined): Usage {
  return Object.fromEntries(Object.entries(list ?? {}).map(([k, v]) => [k, quantityOrZero(v)]));
}

/** Whether the quota's status.hard is its spec.hard: its status.used is then kept up to date by the charges. */
function observed(quota: KubeObject): boolean {
  const status = (quota.status ?? {}) as QuotaStatus;
  return sameKeysAndValues(status.hard ?? {}, (quota.spec as { hard?: Record<string, string> } | undefined)?.hard ?? {});
}

function sameKeysAndValues(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(b);
  return Object.keys(a).length === keys.length &&
    keys.every((k) => a[k] !== undefined && compareQuantities(quantityOrZero(a[k]), quantityOrZero(b[k])) === 0);
}
