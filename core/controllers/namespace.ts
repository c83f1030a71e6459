/**
 * Empties terminating namespaces (kube's namespace controller, reduced to what deletion needs): deletes every
 * namespaced object in them, and once none is left removes the `kubernetes` finalizer so the namespace goes.
 * Objects held by their own finalizers keep the namespace terminating until they are gone.
 */
import { isNotFound } from "../api/errors.ts";
import type { KubeObject } from "../api/types.ts";
import type { Catalog } from "../registry/catalog.ts";
import { collectionPrefix } from "../registry/keys.ts";
import { listObjects } from "../registry/list.ts";
import type { Registry } from "../registry/registry.ts";
import type { ResourceStore } from "../registry/store.ts";

const RESYNC_MS = 2000;

export interface NamespaceController {
  stop(): void;
  /** Runs one pass now; resolves when it is done (tests and shutdown use it). */
  sync(): Promise<void>;
}

export function startNamespaceController(registry: Registry, catalog: Catalog): NamespaceController {
  const namespaces = registry.store(catalog.byGroupVersionResource("", "v1", "namespaces")!);
  let running: Promise<void> | null = null;
  let again = false;
  /** Terminating namespaces seen by the last pass: other writes matter only while there are some. */
  let terminating = 0;

  const sync = async (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        terminating = await finalizeTerminating(registry, catalog, namespaces);
      } while (again);
    })().finally(() => {
      running = null;
    });
    return running;
  };

  const prefix = collectionPrefix(namespaces.type, "");
  const unsubscribe = registry.storage.subscribe((event) => {
    if (event.kv.key.startsWith(prefix) || (terminating > 0 && event.type === "DELETED")) void sync().catch(report);
  });
  const timer = setInterval(() => {
    if (terminating > 0) void sync().catch(report);
  }, RESYNC_MS);
  return {
    stop() {
      clearInterval(timer);
      unsubscribe();
    },
    sync,
  };
}

function report(error: unknown): void {
  console.error("kubun: namespace controller:", error instanceof Error ? error.message : String(error));
}

/** One pass over the terminating namespaces; answers how many there were. */
async function finalizeTerminating(registry: Registry, catalog: Catalog, namespaces: ResourceStore): Promise<number> {
  const { list } = await listObjects(namespaces, { namespace: "", revision: 0, limit: 0 });
  const terminating = list.items.filter((ns) => ns.metadata.deletionTimestamp);
  for (const ns of terminating) {
    const remaining = await deleteContents(registry, catalog, ns.metadata.name as string);
    if (remaining === 0) await removeKubernetesFinalizer(namespaces, ns);
  }
  return terminating.length;
}

/** Deletes what is in the namespace; answers how many objects are still there. */
async function deleteContents(registry: Registry, catalog: Catalog, namespace: string): Promise<number> {
  let remaining = 0;
  for (const type of catalog.all()) {
    if (!type.namespaced || !type.verbs.includes("delete") || !type.verbs.includes("list")) continue;
    const store = registry.store(type);
    const { list } = await listObjects(store, { namespace, revision: 0, limit: 0 });
    for (const item of list.items) {
      remaining++;
      if (item.metadata.deletionTimestamp) continue;
      try {
        const { deleted } = await store.delete(namespace, item.metadata.name as string);
        if (deleted) remaining--;
      } catch (e) {
        if (!isNotFound(e)) throw e;
        remaining--;
      }
    }
  }
  return remaining;
}

async function removeKubernetesFinalizer(namespaces: ResourceStore, ns: KubeObject): Promise<void> {
  const name = ns.metadata.name as string;
  try {
    await namespaces.update("", name, (current) => {
      const next = structuredClone(current!);
      const spec = (next.spec ?? {}) as { finalizers?: string[] };
      next.spec = { ...spec, finalizers: (spec.finalizers ?? []).filter((f) => f !== "kubernetes") };
      return next;
    }, { subresource: "finalize" });
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
}
