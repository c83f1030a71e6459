/**
 * Runs planReplicaSet for every ReplicaSet (or ReplicationController): adopts, creates, deletes, reports status.
 * A refused pod create (quota, pod security, any admission or authorization error) stops the round, as kube's
 * slowStartBatch does, and is reported as kube's manageReplicas reports it: a Warning Event FailedCreate
 * "Error creating: <error>" (controller_utils RealPodControl.createPods) and the ReplicaFailure condition
 * with reason FailedCreate and the error text (replica_set_utils calculateStatus), which goes once a round
 * succeeds. The set is retried with exponential backoff instead of on every pass.
 */
import { isStatusError } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import { collectionPrefix } from "../../registry/keys.ts";
import type { ControllerClient, ResourceRef } from "./client.ts";
import { PODS } from "./client.ts";
import { type Condition, findCondition, setCondition } from "./conditions.ts";
import { type ControlLoop, startLoop, syncEach } from "./loop.ts";
import { createPodFor, deletePodFor } from "./pod-control.ts";
import { controllerRefOf, isControlledBy, newControllerRef, podFromTemplate } from "./owner.ts";
import { isPodActive } from "./pod-state.ts";
import { planReplicaSet, selectsPod, specOfReplicaSet } from "./replicaset.ts";
import { writeStatusIfChanged } from "./status-write.ts";

const RESYNC_MS = 2000;
const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 60_000;
const REPLICA_FAILURE = "ReplicaFailure";

/** When a set whose pod creates were refused may try again (per set uid). */
type Backoff = Map<string, { retryAt: number; delayMs: number }>;

export function startReplicaSetController(client: ControllerClient, ref: ResourceRef): ControlLoop {
  const sets = client.store(ref);
  const pods = client.store(PODS);
  const backoff: Backoff = new Map();
  const component = ref.resource === "replicasets" ? "replicaset-controller" : "replication-controller";
  const pass = async () => {
    const allPods = await client.list(PODS);
    const all = await client.list(ref);
    const live = new Set(all.map((rs) => String(rs.metadata.uid)));
    for (const uid of backoff.keys()) if (!live.has(uid)) backoff.delete(uid);
    await syncEach(
      all,
      (rs) =>
        syncReplicaSet(client, { ref, backoff, component }, rs, allPods.filter((p) => p.metadata.namespace === rs.metadata.namespace)),
    );
  };
  return startLoop(sets.changes, pass, {
    name: ref.resource,
    prefixes: [collectionPrefix(sets.type, ""), collectionPrefix(pods.type, "")],
    resyncMs: RESYNC_MS,
  });
}

interface SetKind {
  ref: ResourceRef;
  backoff: Backoff;
  component: string;
}

async function syncReplicaSet(client: ControllerClient, kind: SetKind, rs: KubeObject, namespacePods: KubeObject[]): Promise<void> {
  const owned = namespacePods.filter((pod) => isControlledBy(pod, rs));
  const terminating = rs.metadata.deletionTimestamp !== undefined;
  if (!terminating) owned.push(...await adoptOrphans(client, rs, namespacePods));
  const plan = planReplicaSet(rs, owned, Date.now());
  const uid = String(rs.metadata.uid);
  const waiting = (kind.backoff.get(uid)?.retryAt ?? 0) > Date.now();
  let outcome: "ok" | "skipped" | { message: string } = "skipped";
  if (!terminating && !waiting) {
    outcome = await createPods(client, kind, rs, plan.create);
    for (const pod of plan.remove) await deletePodFor(client, rs, pod, kind.component);
  }
  const conditions = (plan.status.conditions ?? []) as Condition[];
  if (outcome === "ok") {
    kind.backoff.delete(uid);
    plan.status.conditions = conditions.filter((c) => c.type !== REPLICA_FAILURE);
  } else if (typeof outcome === "object") {
    const previous = kind.backoff.get(uid)?.delayMs ?? FIRST_BACKOFF_MS / 2;
    const delayMs = Math.min(previous * 2, MAX_BACKOFF_MS);
    kind.backoff.set(uid, { retryAt: Date.now() + delayMs, delayMs });
    if (!findCondition(conditions, REPLICA_FAILURE)) {
      plan.status.conditions = setCondition(conditions, {
        type: REPLICA_FAILURE,
        status: "True",
        reason: "FailedCreate",
        message: outcome.message,
      });
    }
  }
  if (plan.status.conditions?.length === 0) delete plan.status.conditions;
  await writeStatusIfChanged(client, kind.ref, rs, plan.status, ["replicas"]);
}

/** Creates `count` pods, stopping at the first refusal (recorded as a FailedCreate Event), whose message it returns. */
async function createPods(client: ControllerClient, kind: SetKind, rs: KubeObject, count: number): Promise<"ok" | { message: string }> {
  const template = specOfReplicaSet(rs).template ?? {};
  for (let i = 0; i < count; i++) {
    try {
      await createPodFor(client, rs, podFromTemplate(template, rs, {}), kind.component);
    } catch (error) {
      if (!isStatusError(error)) throw error;
      return { message: error.message };
    }
  }
  return "ok";
}

/** Active pods without a controller whose labels the set selects become its own (kube's ClaimPods). */
async function adoptOrphans(client: ControllerClient, rs: KubeObject, namespacePods: KubeObject[]): Promise<KubeObject[]> {
  const adopted: KubeObject[] = [];
  for (const pod of namespacePods) {
    if (controllerRefOf(pod) || !isPodActive(pod) || !selectsPod(rs, pod.metadata.labels)) continue;
    const next = structuredClone(pod);
    next.metadata.ownerReferences = [...(pod.metadata.ownerReferences ?? []), newControllerRef(rs)];
    adopted.push(await client.patch(PODS, next));
  }
  return adopted;
}
