/**
 * Follows CustomResourceDefinitions: grants names and records NamesAccepted/Established, serves the accepted
 * types, and for a deleted CRD removes its custom resources, stops serving it and drops the cleanup finalizer.
 * Work runs one CRD at a time; all stored CRDs are served again before start() resolves.
 */
import { isConflict, isNotFound } from "../api/errors.ts";
import type { KubeObject } from "../api/types.ts";
import type { Catalog } from "../registry/catalog.ts";
import { collectionPrefix } from "../registry/keys.ts";
import type { Registry } from "../registry/registry.ts";
import { deleteCustomResources } from "./cleanup.ts";
import { withCondition } from "../registry/apiextensions/mod.ts";
import { CLEANUP_FINALIZER, conditionOf, CRD_GROUP, CRD_RESOURCE, type CustomResourceDefinition } from "../registry/apiextensions/mod.ts";
import { acceptNames, emptyTakenNames, takeNames, type TakenNames } from "./names.ts";
import type { CustomResourceServing } from "./serving.ts";
import { logger } from "../log/mod.ts";

const log = logger("crd-controller");

/** How soon a terminating CRD whose resources are still going is looked at again. */
const CLEANUP_RETRY_MS = 1000;

export interface CRDController {
  stop(): void;
}

export async function startCRDController(
  registry: Registry,
  catalog: Catalog,
  options: { serving: CustomResourceServing },
): Promise<CRDController> {
  const crdType = catalog.byGroupVersionResource(CRD_GROUP, "v1", CRD_RESOURCE)!;
  const crds = registry.store(crdType);
  const known = new Map<string, CustomResourceDefinition>();
  /** CRD name → what it is served as now, so unchanged CRDs are not served again. */
  const servedAs = new Map<string, string>();
  const pending = new Set<string>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let chain = Promise.resolve();
  let stopped = false;

  const takenByOthers = (crd: CustomResourceDefinition): TakenNames => {
    const taken = emptyTakenNames();
    for (const other of known.values()) {
      if (other.metadata.name === crd.metadata.name || other.spec.group !== crd.spec.group) continue;
      takeNames(taken, other.status?.acceptedNames ?? {});
    }
    const ownPlural = options.serving.servedTypes(crd.metadata.name as string)[0]?.resource;
    for (const type of catalog.all()) {
      if (type.group !== crd.spec.group || type.resource === ownPlural || !catalog.isBuiltIn(type)) continue;
      takeNames(taken, {
        plural: type.resource,
        singular: type.singularName,
        kind: type.kind,
        listKind: type.listKind,
        shortNames: type.shortNames,
      });
    }
    return taken;
  };

  const recordNames = async (crd: CustomResourceDefinition): Promise<void> => {
    const naming = acceptNames(crd, takenByOthers(crd));
    const current = JSON.stringify(
      [crd.status?.acceptedNames, conditionOf(crd, "NamesAccepted"), conditionOf(crd, "Established")].map(withoutTime),
    );
    const next = JSON.stringify([naming.acceptedNames, naming.namesAccepted, naming.established].map(withoutTime));
    if (current === next) return;
    // kube's NamingConditionController.sync: an UpdateStatus of the CRD the names were found for. One deleted or
    // changed meantime (404, 409) is named again when that change's event comes.
    const updated = structuredClone(crd);
    updated.status = { ...updated.status, acceptedNames: naming.acceptedNames };
    withCondition(updated, naming.namesAccepted);
    withCondition(updated, naming.established);
    await crds.update("", crd.metadata.name as string, () => updated, { subresource: "status" }).catch((error) => {
      if (!isConflict(error) && !isNotFound(error)) throw error;
    });
  };

  const serve = (crd: CustomResourceDefinition): void => {
    const name = crd.metadata.name as string;
    const accepted = crd.status?.acceptedNames;
    if (conditionOf(crd, "Established")?.status !== "True" || !accepted?.plural) {
      if (servedAs.delete(name)) options.serving.unserve(name);
      return;
    }
    // A deletionTimestamp changes serving too: creates are refused from then on.
    const signature = JSON.stringify([crd.spec, accepted, crd.metadata.deletionTimestamp]);
    if (servedAs.get(name) === signature) return;
    options.serving.serve(crd, accepted);
    servedAs.set(name, signature);
  };

  const finalize = async (crd: CustomResourceDefinition): Promise<void> => {
    const name = crd.metadata.name as string;
    if (!(crd.metadata.finalizers ?? []).includes(CLEANUP_FINALIZER)) return;
    const served = options.serving.servedTypes(name);
    const remaining = served.length > 0 ? await deleteCustomResources(registry, served[0]) : 0;
    if (remaining > 0) {
      retryLater(name);
      return;
    }
    options.serving.unserve(name);
    servedAs.delete(name);
    await crds.update("", name, (live) => {
      if (!live) throw new Error("gone");
      live.metadata.finalizers = (live.metadata.finalizers ?? []).filter((f) => f !== CLEANUP_FINALIZER);
      return live;
    });
  };

  const reconcile = async (name: string): Promise<void> => {
    const crd = known.get(name);
    if (!crd) {
      options.serving.unserve(name);
      servedAs.delete(name);
      return;
    }
    if (crd.metadata.deletionTimestamp) {
      // Still served while its resources are deleted (after a restart too), as kube does.
      serve(crd);
      return await finalize(crd);
    }
    await recordNames(crd);
    // The status write above comes back as an event; serve from the newest object.
    serve(known.get(name) ?? crd);
  };

  const enqueue = (name: string): void => {
    if (stopped || pending.has(name)) return;
    pending.add(name);
    chain = chain.then(async () => {
      pending.delete(name);
      if (stopped) return;
      try {
        await reconcile(name);
      } catch (error) {
        if (isNotFound(error) || (error as Error).message === "gone") return;
        log.error(`customresourcedefinition ${name} failed`, error);
        retryLater(name);
      }
    });
  };

  const retryLater = (name: string): void => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      enqueue(name);
    }, CLEANUP_RETRY_MS);
    timers.add(timer);
  };

  const follow = await registry.follow(collectionPrefix(crdType, ""), (event) => {
    const name = event.object.metadata.name as string;
    if (event.type === "DELETED") known.delete(name);
    else known.set(name, event.object as CustomResourceDefinition);
    enqueue(name);
  });
  await chain;
  return {
    stop() {
      stopped = true;
      follow.stop();
      for (const timer of timers) clearTimeout(timer);
    },
  };
}

function withoutTime(value: unknown): unknown {
  if (!value || typeof value !== "object") return value;
  const { lastTransitionTime: _t, ...rest } = value as KubeObject & { lastTransitionTime?: string };
  return rest;
}
