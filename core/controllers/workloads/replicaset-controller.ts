/** Runs planReplicaSet for every ReplicaSet (or ReplicationController): adopts, creates, deletes, reports status. */
import type { KubeObject } from "../../api/types.ts";
import { collectionPrefix } from "../../registry/keys.ts";
import type { ControllerClient, ResourceRef } from "./client.ts";
import { PODS } from "./client.ts";
import { type ControlLoop, startLoop } from "./loop.ts";
import { controllerRefOf, isControlledBy, newControllerRef, podFromTemplate } from "./owner.ts";
import { isPodActive } from "./pod-state.ts";
import { planReplicaSet, selectsPod, specOfReplicaSet } from "./replicaset.ts";
import { writeStatusIfChanged } from "./status-write.ts";

const RESYNC_MS = 2000;

export function startReplicaSetController(client: ControllerClient, ref: ResourceRef): ControlLoop {
  const sets = client.store(ref);
  const pods = client.store(PODS);
  const pass = async () => {
    const allPods = await client.list(PODS);
    for (const rs of await client.list(ref)) await syncReplicaSet(client, ref, rs, allPods.filter((p) => p.metadata.namespace === rs.metadata.namespace));
  };
  return startLoop(sets.storage, pass, {
    name: ref.resource,
    prefixes: [collectionPrefix(sets.type, ""), collectionPrefix(pods.type, "")],
    resyncMs: RESYNC_MS,
  });
}

async function syncReplicaSet(client: ControllerClient, ref: ResourceRef, rs: KubeObject, namespacePods: KubeObject[]): Promise<void> {
  const owned = namespacePods.filter((pod) => isControlledBy(pod, rs));
  const terminating = rs.metadata.deletionTimestamp !== undefined;
  if (!terminating) owned.push(...await adoptOrphans(client, rs, namespacePods));
  const plan = planReplicaSet(rs, owned, Date.now());
  if (!terminating) {
    const template = specOfReplicaSet(rs).template ?? {};
    for (let i = 0; i < plan.create; i++) await client.create(PODS, podFromTemplate(template, rs, {}));
    for (const pod of plan.remove) await client.delete(PODS, pod);
  }
  await writeStatusIfChanged(client, ref, rs, plan.status, ["replicas"]);
}

/** Active pods without a controller whose labels the set selects become its own (kube's ClaimPods). */
async function adoptOrphans(client: ControllerClient, rs: KubeObject, namespacePods: KubeObject[]): Promise<KubeObject[]> {
  const adopted: KubeObject[] = [];
  for (const pod of namespacePods) {
    if (controllerRefOf(pod) || !isPodActive(pod) || !selectsPod(rs, pod.metadata.labels)) continue;
    const next = structuredClone(pod);
    next.metadata.ownerReferences = [...(pod.metadata.ownerReferences ?? []), newControllerRef(rs)];
    adopted.push(await client.update(PODS, next));
  }
  return adopted;
}
