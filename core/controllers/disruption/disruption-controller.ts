/**
 * kube's disruption controller (kube-controller-manager name "disruption"): keeps every PodDisruptionBudget's
 * status in step with the pods its selector picks (pdb-status.ts), so the eviction subresource can decide. A
 * level-triggered pass runs after changes to budgets, pods and the workloads whose scale budgets read, and on a
 * resync so expired eviction records fall away. Each sync of a budget records trySync's Events on it: Normal NoPods
 * "No matching pods found" when it selects none, Warning CalculateExpectedPodCountFailed "Failed to calculate the
 * number of expected pods: <error>" when a selected pod's controller cannot be found.
 */
import { isDeepStrictEqual } from "node:util";
import type { KubeObject } from "../../api/types.ts";
import { collectionPrefix } from "../../registry/keys.ts";
import type { Controller } from "../runtime/mod.ts";
import {
  type ControllerClient,
  controllerClient,
  DEPLOYMENTS,
  PODS,
  REPLICA_SETS,
  REPLICATION_CONTROLLERS,
  type ResourceRef,
  STATEFUL_SETS,
} from "../workloads/mod.ts";
import { startLoop } from "../workloads/mod.ts";
import { controllerRefOf } from "../workloads/mod.ts";
import { budgetSelects, desiredPdbStatus, type ExpectedScale } from "./pdb-status.ts";

export const PODDISRUPTIONBUDGETS: ResourceRef = { group: "policy", version: "v1", resource: "poddisruptionbudgets" };
const RESYNC_MS = 5000;
const COMPONENT = "controllermanager";

/** getPodsForPdb: the namespace's pods the selector picks; an empty or invalid selector picks none. */
export function podsForPdb(pdb: KubeObject, pods: KubeObject[]): KubeObject[] {
  return pods.filter((pod) => budgetSelects(pdb, pod));
}

function replicasOf(obj: KubeObject | null, uid: string): number | undefined {
  if (!obj || obj.metadata.uid !== uid) return undefined;
  return (obj.spec as { replicas?: number } | undefined)?.replicas ?? 1;
}

/** The controller a pod's controllerRef names and its wanted replicas (kube's finders); a ReplicaSet answers for its Deployment. */
async function controllerScale(
  client: ControllerClient,
  namespace: string,
  ref: { kind: string; name: string; uid: string },
): Promise<{ uid: string; scale: number } | undefined> {
  const direct: Record<string, ResourceRef> = {
    ReplicationController: REPLICATION_CONTROLLERS,
    StatefulSet: STATEFUL_SETS,
    ReplicaSet: REPLICA_SETS,
  };
  const kind = direct[ref.kind];
  if (!kind) return undefined;
  const controller = await client.get(kind, namespace, ref.name);
  const scale = replicasOf(controller, ref.uid);
  if (scale === undefined) return undefined;
  const owner = ref.kind === "ReplicaSet" ? controllerRefOf(controller!) : undefined;
  if (owner?.kind !== "Deployment") return { uid: ref.uid, scale };
  const deploymentScale = replicasOf(await client.get(DEPLOYMENTS, namespace, owner.name), owner.uid);
  return deploymentScale === undefined ? undefined : { uid: owner.uid, scale: deploymentScale };
}

/** getExpectedScale: the summed scale of the pods' controllers; pods without a controller do not count. */
async function expectedScale(client: ControllerClient, pods: KubeObject[]): Promise<ExpectedScale> {
  const scales = new Map<string, number>();
  const resolved = new Set<string>();
  for (const pod of pods) {
    const ref = controllerRefOf(pod);
    if (!ref || resolved.has(ref.uid)) continue;
    const found = await controllerScale(client, pod.metadata.namespace ?? "", ref);
    if (!found) return { error: `found no controllers for pod "${String(pod.metadata.name)}"` };
    resolved.add(ref.uid);
    scales.set(found.uid, found.scale);
  }
  return { count: [...scales.values()].reduce((sum, n) => sum + n, 0) };
}

async function syncAll(client: ControllerClient): Promise<void> {
  const budgets = await client.list(PODDISRUPTIONBUDGETS);
  if (budgets.length === 0) return;
  const pods = await client.list(PODS);
  for (const pdb of budgets) {
    const selected = podsForPdb(pdb, pods);
    const scale = await expectedScale(client, selected);
    if (selected.length === 0) {
      client.recordEvent(pdb, { type: "Normal", reason: "NoPods", message: "No matching pods found", component: COMPONENT });
    }
    if ("error" in scale) {
      const message = `Failed to calculate the number of expected pods: ${scale.error}`;
      client.recordEvent(pdb, { type: "Warning", reason: "CalculateExpectedPodCountFailed", message, component: COMPONENT });
    }
    const next = JSON.parse(JSON.stringify(desiredPdbStatus(pdb, selected, () => scale, Date.now())));
    if (!isDeepStrictEqual(pdb.status ?? {}, next)) await client.updateStatus(PODDISRUPTIONBUDGETS, { ...pdb, status: next });
  }
}

export const disruptionController: Controller = {
  name: "disruption",
  start(ctx) {
    const client = controllerClient(ctx.registry, ctx.catalog, { fieldManager: "kube-controller-manager", signal: ctx.signal });
    const watched = [PODDISRUPTIONBUDGETS, PODS, REPLICA_SETS, DEPLOYMENTS, STATEFUL_SETS, REPLICATION_CONTROLLERS];
    const prefixes = watched.map((ref) => collectionPrefix(client.store(ref).type, ""));
    const loop = startLoop(client.store(PODS).changes, () => syncAll(client), { name: "disruption", prefixes, resyncMs: RESYNC_MS });
    ctx.signal.addEventListener("abort", () => loop.stop(), { once: true });
  },
};
