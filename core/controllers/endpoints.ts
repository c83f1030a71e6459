/**
 * kube's `endpoint` controller: every Service with a selector gets an Endpoints object of its name listing the
 * selected Pods (see endpoint-subsets.ts); Services without a selector keep whatever Endpoints users write, and
 * the Endpoints of a deleted Service go with it.
 */
import { isDeepStrictEqual } from "node:util";
import type { KubeObject, ObjectMeta } from "../api/types.ts";
import { isBenignRace } from "./_races.ts";
import {
  endpointsLabels,
  enqueueServiceChanges,
  LAST_CHANGE_TRIGGER_TIME,
  lastChangeTriggerTime,
  selectedPods,
  selectsPods,
  serviceInformers,
} from "./_service-endpoints.ts";
import { endpointSubsets } from "./endpoint-subsets.ts";
import type { Controller } from "./runtime/mod.ts";
import { keyOf, splitKey } from "./runtime/mod.ts";

export const endpointsController: Controller = {
  name: "endpoint",
  async start(ctx) {
    const store = ctx.store("", "v1", "endpoints");
    const informers = await serviceInformers(ctx);
    const endpoints = await ctx.informer("", "v1", "endpoints");
    const queue = ctx.queue(async (key) => {
      const { namespace, name } = splitKey(key);
      const service = informers.services.get(namespace, name);
      try {
        if (!service) {
          if (endpoints.get(namespace, name)) await store.delete(namespace, name);
          return;
        }
        if (!selectsPods(service)) return;
        const pods = selectedPods(service, informers.pods);
        const subsets = endpointSubsets(service, pods);
        const labels = endpointsLabels(service);
        await store.update(
          namespace,
          name,
          (
            live,
          ) => (live && isCurrent(live, subsets, labels)
            ? live
            : desired(live, service, { subsets, labels, triggerTime: lastChangeTriggerTime(service, pods) })),
        );
      } catch (e) {
        if (!isBenignRace(e)) throw e;
      }
    });
    enqueueServiceChanges(ctx, informers, queue);
    // As kube: Endpoints present at start whose Service is gone are removed (checkLeftoverEndpoints), and deleted
    // ones are put back (NewEndpointController handles Endpoints deletions only); a new or changed one is left alone,
    // since users may write it before its Service, or for a Service it will never have.
    for (const existing of endpoints.list()) queue.add(keyOf(existing));
    const stopFollowing = endpoints.onChange((event) => event.type === "DELETED" && queue.add(keyOf(event.object)));
    ctx.signal.addEventListener("abort", stopFollowing, { once: true });
  },
};

/** kube skips the write when subsets and labels match, whatever the trigger-time annotation says. */
function isCurrent(live: KubeObject, subsets: unknown[], labels: Record<string, string>): boolean {
  return isDeepStrictEqual(live.subsets ?? [], subsets) && isDeepStrictEqual(live.metadata.labels ?? {}, labels);
}

function desired(
  live: KubeObject | null,
  service: KubeObject,
  wanted: { subsets: unknown[]; labels: Record<string, string>; triggerTime?: string },
): KubeObject {
  const { subsets: _old, ...base }: KubeObject = live ??
    { apiVersion: "v1", kind: "Endpoints", metadata: { name: service.metadata.name, namespace: service.metadata.namespace } };
  const { labels: _labels, annotations: oldAnnotations, ...meta } = base.metadata;
  const { [LAST_CHANGE_TRIGGER_TIME]: _time, ...annotations } = oldAnnotations ?? {};
  if (wanted.triggerTime) annotations[LAST_CHANGE_TRIGGER_TIME] = wanted.triggerTime;
  const metadata: ObjectMeta = { ...meta };
  if (Object.keys(wanted.labels).length > 0) metadata.labels = wanted.labels;
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  return wanted.subsets.length > 0 ? { ...base, metadata, subsets: wanted.subsets } : { ...base, metadata };
}
