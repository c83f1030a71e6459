/**
 * kube's `endpointslice` controller: the EndpointSlices (IPv4, at most 100 endpoints each) of every Service with a
 * selector, labelled with the Service's name and this controller as manager and owned by the Service. The slices
 * are read from the store, not a cache, so a slice just written is never made twice.
 */
import { isDeepStrictEqual } from "node:util";
import type { KubeObject, OwnerReference } from "../api/types.ts";
import { listObjects } from "../registry/list.ts";
import type { ResourceStore } from "../registry/store.ts";
import { isBenignRace, tolerateBenignRace } from "./_races.ts";
import {
  endpointsLabels,
  enqueueServiceChanges,
  LAST_CHANGE_TRIGGER_TIME,
  lastChangeTriggerTime,
  selectedPods,
  selectsPods,
  serviceInformers,
} from "./_service-endpoints.ts";
import { endpointGroups, ZONE_LABEL } from "./endpointslice-endpoints.ts";
import { planSlices, type SliceContent } from "./endpointslice-plan.ts";
import type { Controller } from "./runtime/mod.ts";
import { enqueueChanges } from "./runtime/mod.ts";
import { splitKey } from "./runtime/mod.ts";

export const SERVICE_NAME_LABEL = "kubernetes.io/service-name";
export const MANAGED_BY_LABEL = "endpointslice.kubernetes.io/managed-by";
export const MANAGED_BY = "endpointslice-controller.k8s.io";

export const endpointSliceController: Controller = {
  name: "endpointslice",
  async start(ctx) {
    const store = ctx.store("discovery.k8s.io", "v1", "endpointslices");
    const informers = await serviceInformers(ctx);
    const nodes = await ctx.informer("", "v1", "nodes");
    const slices = await ctx.informer("discovery.k8s.io", "v1", "endpointslices");
    const zoneOf = (nodeName: string) => nodes.get("", nodeName)?.metadata.labels?.[ZONE_LABEL];
    const queue = ctx.queue(async (key) => {
      const { namespace, name } = splitKey(key);
      const service = informers.services.get(namespace, name);
      const existing = await managedSlices(store, namespace, name);
      if (!service || !selectsPods(service)) {
        await Promise.all(existing.map((slice) => deleteSlice(store, slice)));
        return;
      }
      const pods = selectedPods(service, informers.pods);
      const metadata = sliceMetadata(service, lastChangeTriggerTime(service, pods));
      const plan = planSlices(endpointGroups(service, pods, zoneOf), existing, {
        metadataCurrent: (slice) =>
          isDeepStrictEqual(slice.metadata.labels ?? {}, metadata.labels) &&
          isDeepStrictEqual(slice.metadata.ownerReferences, metadata.ownerReferences),
      });
      for (const content of plan.write) await writeSlice(store, service, content, metadata);
      await Promise.all(plan.delete.map((slice) => deleteSlice(store, slice)));
    });
    enqueueServiceChanges(ctx, informers, queue);
    // Slices changed or deleted by others are put back.
    enqueueChanges(slices, queue, (slice) => {
      const labels = slice.metadata.labels ?? {};
      return labels[MANAGED_BY_LABEL] === MANAGED_BY && labels[SERVICE_NAME_LABEL]
        ? `${slice.metadata.namespace}/${labels[SERVICE_NAME_LABEL]}`
        : undefined;
    }, ctx.signal);
  },
};

interface SliceMetadata {
  labels: Record<string, string>;
  ownerReferences: OwnerReference[];
  annotations: Record<string, string>;
}

function sliceMetadata(service: KubeObject, triggerTime: string | undefined): SliceMetadata {
  const name = String(service.metadata.name);
  return {
    labels: { ...endpointsLabels(service), [SERVICE_NAME_LABEL]: name, [MANAGED_BY_LABEL]: MANAGED_BY },
    ownerReferences: [{
      apiVersion: "v1",
      kind: "Service",
      name,
      uid: String(service.metadata.uid),
      controller: true,
      blockOwnerDeletion: true,
    }],
    annotations: triggerTime ? { [LAST_CHANGE_TRIGGER_TIME]: triggerTime } : {},
  };
}

async function managedSlices(store: ResourceStore, namespace: string, service: string): Promise<KubeObject[]> {
  const page = await listObjects(store, {
    namespace,
    revision: 0,
    limit: 0,
    matches: (slice) => slice.metadata.labels?.[SERVICE_NAME_LABEL] === service && slice.metadata.labels?.[MANAGED_BY_LABEL] === MANAGED_BY,
  });
  return page.list.items;
}

async function writeSlice(store: ResourceStore, service: KubeObject, content: SliceContent, metadata: SliceMetadata): Promise<void> {
  const namespace = String(service.metadata.namespace);
  const body = { addressType: "IPv4", endpoints: content.endpoints, ports: content.ports };
  const { annotations, ...owned } = metadata;
  try {
    if (!content.existing) {
      const meta = {
        generateName: `${service.metadata.name}-`,
        namespace,
        ...owned,
        ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      };
      await store.create(namespace, { apiVersion: "discovery.k8s.io/v1", kind: "EndpointSlice", metadata: meta, ...body });
      return;
    }
    await store.update(namespace, String(content.existing.metadata.name), (live) => ({
      ...live!,
      metadata: { ...live!.metadata, ...owned, annotations: { ...live!.metadata.annotations, ...annotations } },
      ...body,
    }));
  } catch (e) {
    if (!isBenignRace(e)) throw e;
  }
}

async function deleteSlice(store: ResourceStore, slice: KubeObject): Promise<void> {
  await tolerateBenignRace(
    store.delete(String(slice.metadata.namespace), String(slice.metadata.name), { preconditions: { uid: String(slice.metadata.uid) } }),
  );
}
