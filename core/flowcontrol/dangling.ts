/**
 * kube's FlowSchema status (apf_controller.go presyncFlowSchemaStatus): a Dangling condition saying whether the
 * referenced priority level exists, written only when it differs from what the object has.
 */
import type { KubeObject } from "../api/types.ts";
import { nowTimestamp } from "../registry/object-meta.ts";
import type { ResourceStore } from "../registry/store.ts";
import type { FlowSchemaSpec } from "./matching.ts";

type Conditions = { conditions?: Record<string, unknown>[] } | undefined;

const ALREADY_SET = Symbol("already set");

export async function updateDanglingConditions(
  flowSchemas: readonly KubeObject[],
  levelExists: (name: string) => boolean,
  store: ResourceStore,
): Promise<void> {
  for (const schema of flowSchemas) {
    const levelName = String((schema.spec as FlowSchemaSpec | undefined)?.priorityLevelConfiguration?.name ?? "");
    const wanted = levelExists(levelName)
      ? {
        type: "Dangling",
        status: "False",
        reason: "Found",
        message: `This FlowSchema references the PriorityLevelConfiguration object named "${levelName}" and it exists`,
      }
      : {
        type: "Dangling",
        status: "True",
        reason: "NotFound",
        message: `This FlowSchema references the PriorityLevelConfiguration object named "${levelName}" but there is no such object`,
      };
    const sameAs = (object: KubeObject) => {
      const current = ((object.status as Conditions)?.conditions ?? []).find((condition) => condition.type === "Dangling");
      return current !== undefined && current.status === wanted.status && current.reason === wanted.reason &&
        current.message === wanted.message;
    };
    if (sameAs(schema)) continue;
    await store.update("", String(schema.metadata.name), (latest) => {
      if (!latest) throw new Error("FlowSchema gone");
      // The schema above may be older than storage (a write of this server's previous round not yet followed): decided
      // again on the stored object, as kube's GuaranteedUpdate re-runs its tryUpdate, so a condition is written once.
      if (sameAs(latest)) throw ALREADY_SET;
      const others = ((latest.status as Conditions)?.conditions ?? []).filter((condition) => condition.type !== "Dangling");
      return {
        ...latest,
        status: { ...latest.status as object, conditions: [...others, { ...wanted, lastTransitionTime: nowTimestamp() }] },
      };
    }, { subresource: "status" }).catch(() => {
      // Already set, deleted, or changed meanwhile: the informer's next event brings another round.
    });
  }
}
