/**
 * kube's FlowSchema status (apf_controller.go presyncFlowSchemaStatus): a Dangling condition saying whether the
 * referenced priority level exists, written only when it differs from what the object has.
 */
import type { KubeObject } from "../api/types.ts";
import { nowTimestamp } from "../registry/object-meta.ts";
import type { ResourceStore } from "../registry/store.ts";
import type { FlowSchemaSpec } from "./matching.ts";

type Conditions = { conditions?: Record<string, unknown>[] } | undefined;

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
    const current = ((schema.status as Conditions)?.conditions ?? []).find((condition) => condition.type === "Dangling");
    if (current && current.status === wanted.status && current.reason === wanted.reason && current.message === wanted.message) continue;
    await store.update("", String(schema.metadata.name), (latest) => {
      if (!latest) throw new Error("FlowSchema gone");
      const others = ((latest.status as Conditions)?.conditions ?? []).filter((condition) => condition.type !== "Dangling");
      return {
        ...latest,
        status: { ...latest.status as object, conditions: [...others, { ...wanted, lastTransitionTime: nowTimestamp() }] },
      };
    }, { subresource: "status" }).catch(() => {
      // Deleted or changed meanwhile: the informer's next event brings another round.
    });
  }
}
