/**
 * The adoption half of kube's ControllerRefManager: objects with no controller that `owner` selects, and that
 * are not being deleted, get a controller reference to it. An owner being deleted adopts nothing.
 */
import { labelSelectorFromObject, matchesLabels } from "../../api/label-selector.ts";
import type { KubeObject } from "../../api/types.ts";
import type { ControllerClient, ResourceRef } from "./client.ts";
import { controllerRefOf, newControllerRef } from "./owner.ts";

/** Whether the owner's spec.selector (a LabelSelector) matches the object's labels. */
export function selectedBy(owner: KubeObject, obj: KubeObject): boolean {
  const selector = (owner.spec as { selector?: Parameters<typeof labelSelectorFromObject>[0] } | undefined)?.selector;
  return matchesLabels(labelSelectorFromObject(selector), obj.metadata.labels);
}

/** `also` narrows the candidates the selector matches (a StatefulSet takes only pods named after it). */
export async function adoptOrphans(
  client: ControllerClient,
  ref: ResourceRef,
  owner: KubeObject,
  candidates: { objects: KubeObject[]; also?: (obj: KubeObject) => boolean },
): Promise<KubeObject[]> {
  if (owner.metadata.deletionTimestamp) return [];
  const adopted: KubeObject[] = [];
  for (const obj of candidates.objects) {
    if (controllerRefOf(obj) || obj.metadata.deletionTimestamp || !selectedBy(owner, obj) || candidates.also?.(obj) === false) continue;
    const next = structuredClone(obj);
    next.metadata.ownerReferences = [...(obj.metadata.ownerReferences ?? []), newControllerRef(owner)];
    adopted.push(await client.patch(ref, next));
  }
  return adopted;
}
