/**
 * Built-in resources served in more than one version over one stored form (kube converts through its internal type;
 * here one served version is the stored form and the others convert to and from it). A version may belong to
 * another group than the stored form's, where kube's resources cohabit (events.k8s.io/v1 Events are core Events;
 * keys.ts stores them under the core collection).
 */
import type { KubeObject } from "../../api/types.ts";
import type { ResourceType } from "../../api/resource-type.ts";
import { coreEventFromEventsV1, eventsV1FromCoreEvent } from "./events.ts";
import { FLOWCONTROL_CONVERSIONS } from "./flowcontrol.ts";
export { coreEventFromEventsV1 } from "./events.ts";
import { horizontalPodAutoscalerFromV1, horizontalPodAutoscalerToV1, horizontalPodAutoscalerV2 } from "./hpa.ts";

export interface VersionConversion {
  /** The object as stored, from the served version's shape. */
  toStored(obj: KubeObject): KubeObject;
  /** The stored object in the served version's shape. */
  fromStored(obj: KubeObject): KubeObject;
}

const CONVERSIONS: Record<string, VersionConversion> = {
  "autoscaling/v1/horizontalpodautoscalers": { toStored: horizontalPodAutoscalerFromV1, fromStored: horizontalPodAutoscalerToV1 },
  "autoscaling/v2/horizontalpodautoscalers": { toStored: horizontalPodAutoscalerV2, fromStored: horizontalPodAutoscalerV2 },
  ...FLOWCONTROL_CONVERSIONS,
  "events.k8s.io/v1/events": { toStored: coreEventFromEventsV1, fromStored: eventsV1FromCoreEvent },
};

export function versionConversionFor(type: Pick<ResourceType, "group" | "version" | "resource">): VersionConversion | undefined {
  return CONVERSIONS[`${type.group}/${type.version}/${type.resource}`];
}

/**
 * `obj` of `resource` in `fromVersion` as `toVersion` of the same resource (kube's ConvertToGVK, used where a
 * webhook registered for another served version is called); resources with one shape only change apiVersion.
 */
export function convertToVersion(
  obj: KubeObject,
  resource: { group: string; resource: string },
  fromVersion: string,
  toVersion: string,
): KubeObject {
  if (fromVersion === toVersion) return obj;
  const from = versionConversionFor({ ...resource, version: fromVersion });
  const to = versionConversionFor({ ...resource, version: toVersion });
  if (from && to) return to.fromStored(from.toStored(obj));
  return { ...obj, apiVersion: resource.group === "" ? toVersion : `${resource.group}/${toVersion}` };
}
