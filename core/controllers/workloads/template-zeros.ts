/**
 * A pod template as Go holds it: the always-encoded fields at their zero values (core/schema/go-zero-values.ts).
 * kube compares templates as Go structs (EqualIgnoreHash, the history's Match), where a field left out and its zero
 * value are the same; an older kubun stored templates without those fields, so a template written since must still
 * match its ReplicaSet or ControllerRevision instead of starting a rollout.
 */
import type { KubeObject } from "../../api/types.ts";
import { withGoZeroValues } from "../../schema/go-zero-values.ts";
import type { PodTemplate } from "./owner.ts";

/** core/v1 PodTemplate's `template` is a PodTemplateSpec: its zero values are the template's. */
export function templateWithGoZeroValues(template: PodTemplate): PodTemplate {
  const holder = { apiVersion: "v1", kind: "PodTemplate", metadata: {}, template } as unknown as KubeObject;
  return (withGoZeroValues(holder) as unknown as { template: PodTemplate }).template;
}
