/**
 * Built-in resources served in more than one version over one stored form (kube converts through its internal type;
 * here one served version is the stored form and the others convert to and from it). A version may belong to
 * another group than the stored form's, where kube's resources cohabit (events.k8s.io/v1 Events are core Events;
 * keys.ts stores them under the core collection).
 */
import { apiVersionOf, type KubeObject } from "../../api/types.ts";
import type { ResourceType } from "../../api/resource-type.ts";
import { withGoZeroValues } from "../../schema/go-zero-values.ts";
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

/** Each direction ends as kube's does, in the Go struct of its target version: with that type's zero values. */
function encodedAsGo(conversion: VersionConversion): VersionConversion {
  return {
    toStored: (obj) => withGoZeroValues(conversion.toStored(obj)),
    fromStored: (obj) => withGoZeroValues(conversion.fromStored(obj)),
  };
}

const CONVERSIONS: Record<string, VersionConversion> = Object.fromEntries(
  Object.entries({
    "autoscaling/v1/horizontalpodautoscalers": { toStored: horizontalPodAutoscalerFromV1, fromStored: horizontalPodAutoscalerToV1 },
    "autoscaling/v2/horizontalpodautoscalers": { toStored: horizontalPodAutoscalerV2, fromStored: horizontalPodAutoscalerV2 },
    ...FLOWCONTROL_CONVERSIONS,
    "events.k8s.io/v1/events": { toStored: coreEventFromEventsV1, fromStored: eventsV1FromCoreEvent },
  }).map(([key, conversion]) => [key, encodedAsGo(conversion)]),
);

export function versionConversionFor(type: Pick<ResourceType, "group" | "version" | "resource">): VersionConversion | undefined {
  return CONVERSIONS[`${type.group}/${type.version}/${type.resource}`];
}

type ServedVersion = Pick<ResourceType, "group" | "version" | "resource">;

/**
 * `obj` as served by `from` in the shape `to` serves, both serving one stored resource (kube's ConvertToGVK, used
 * where a webhook registered for an equivalent resource is called): through the stored form, a version without a
 * conversion being that form; resources with one shape only change apiVersion.
 */
export function convertToVersion(obj: KubeObject, from: ServedVersion, to: ServedVersion): KubeObject {
  if (from.group === to.group && from.version === to.version) return obj;
  const fromConversion = versionConversionFor(from);
  const toConversion = versionConversionFor(to);
  const stored = fromConversion ? fromConversion.toStored(obj) : obj;
  return toConversion ? toConversion.fromStored(stored) : { ...stored, apiVersion: apiVersionOf(to.group, to.version) };
}
