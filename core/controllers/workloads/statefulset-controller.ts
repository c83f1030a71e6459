/**
 * The StatefulSet controller: records each template as a ControllerRevision, runs planStatefulSet (creating a
 * pod's claims before the pod; claims are never deleted), reports status and prunes unused revisions beyond
 * revisionHistoryLimit. Pod and revision names are deterministic, so a pass after a crash repeats nothing.
 */
import type { KubeObject } from "../../api/types.ts";
import { collectionPrefix } from "../../registry/keys.ts";
import { adoptOrphans } from "./adopt.ts";
import { CONTROLLER_REVISIONS, type ControllerClient, PERSISTENT_VOLUME_CLAIMS, PODS, STATEFUL_SETS } from "./client.ts";
import { oldestUnprotected, syncTemplateRevision, templateOfRevision, templatePatch } from "./controller-revision.ts";
import { type ControlLoop, startLoop, syncEach } from "./loop.ts";
import { createPodFor, deletePodFor, type PodEventWords } from "./pod-control.ts";
import { isControlledBy } from "./owner.ts";
import { planStatefulSet, type StatefulSetStatus } from "./statefulset-plan.ts";
import { claimsFor, ordinalOf, podRevision, statefulSetSpec } from "./statefulset-pods.ts";
import { writeStatusIfChanged } from "./status-write.ts";
import { templateHash } from "./template-hash.ts";

const RESYNC_MS = 2000;
const COMPONENT = "statefulset-controller";
/** Status fields kube always writes, zero or not. */
const ALWAYS_WRITTEN = ["replicas", "availableReplicas", "collisionCount"];

export function startStatefulSetController(client: ControllerClient): ControlLoop {
  const sets = client.store(STATEFUL_SETS);
  const pass = async () => {
    const pods = await client.list(PODS);
    const revisions = await client.list(CONTROLLER_REVISIONS);
    await syncEach(await client.list(STATEFUL_SETS), (set) => {
      const inNamespace = (obj: KubeObject) => obj.metadata.namespace === set.metadata.namespace;
      return syncStatefulSet(client, set, { pods: pods.filter(inNamespace), revisions: revisions.filter(inNamespace) });
    });
  };
  return startLoop(sets.changes, pass, {
    name: "statefulset",
    prefixes: [STATEFUL_SETS, PODS, CONTROLLER_REVISIONS].map((ref) => collectionPrefix(client.store(ref).type, "")),
    resyncMs: RESYNC_MS,
  });
}

async function syncStatefulSet(
  client: ControllerClient,
  set: KubeObject,
  inNamespace: { pods: KubeObject[]; revisions: KubeObject[] },
): Promise<void> {
  const pods = [
    ...inNamespace.pods.filter((pod) => isControlledBy(pod, set)),
    ...await adoptOrphans(client, PODS, set, { objects: inNamespace.pods, also: (pod) => ordinalOf(set, pod) >= 0 }),
  ];
  const owned = [
    ...inNamespace.revisions.filter((r) => isControlledBy(r, set)),
    ...await adoptOrphans(client, CONTROLLER_REVISIONS, set, { objects: inNamespace.revisions }),
  ];
  const collisionCount = (set.status as { collisionCount?: number } | undefined)?.collisionCount ?? 0;
  const revisions = await syncTemplateRevision(client, STATEFUL_SETS, set, {
    owned,
    hash: templateHash(templatePatch(set), collisionCount),
  });
  if (!revisions) return;
  const currentName = (set.status as { currentRevision?: string } | undefined)?.currentRevision;
  const current = revisions.all.find((r) => r.metadata.name === currentName) ?? revisions.update;
  const asRevision = (r: KubeObject) => ({ name: String(r.metadata.name), template: templateOfRevision(r) });
  const plan = planStatefulSet(set, pods, { current: asRevision(current), update: asRevision(revisions.update) }, Date.now());
  const words = statefulPodWords(set);
  for (const action of plan.actions) {
    if ("create" in action) {
      for (const claim of claimsFor(set, action.ordinal)) {
        if (await client.create(PERSISTENT_VOLUME_CLAIMS, claim)) {
          const message =
            `create Claim ${claim.metadata.name} Pod ${action.create.metadata.name} in StatefulSet ${set.metadata.name} success`;
          client.recordEvent(set, { type: "Normal", reason: "SuccessfulCreate", message, component: COMPONENT });
        }
      }
      await createPodFor(client, set, action.create, COMPONENT, words);
    } else {
      await deletePodFor(client, set, action.remove, COMPONENT, words);
    }
  }
  await writeStatusIfChanged(client, STATEFUL_SETS, set, plan.status, ALWAYS_WRITTEN);
  await pruneHistory(client, set, { pods, revisions: revisions.all, status: plan.status });
}

/** StatefulPodControl.recordPodEvent and recordClaimEvent's wording ("<verb> Pod <pod> in StatefulSet <set> ..."). */
function statefulPodWords(set: KubeObject): PodEventWords {
  const about = (verb: string, pod: KubeObject) => `${verb} Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name}`;
  return {
    created: (pod) => `${about("create", pod)} successful`,
    createFailed: (pod, error) => `${about("create", pod)} failed error: ${error.message}`,
    deleted: (pod) => `${about("delete", pod)} successful`,
    deleteFailed: (pod, error) => `${about("delete", pod)} failed error: ${error.message}`,
  };
}

/** Deletes the oldest revisions beyond revisionHistoryLimit that no pod, and neither status revision, uses. */
async function pruneHistory(
  client: ControllerClient,
  set: KubeObject,
  state: { pods: KubeObject[]; revisions: KubeObject[]; status: StatefulSetStatus },
): Promise<void> {
  const live = new Set([state.status.currentRevision, state.status.updateRevision, ...state.pods.map(podRevision)]);
  const isLive = (r: KubeObject) => live.has(String(r.metadata.name));
  const excess = state.revisions.filter((r) => !isLive(r)).length - (statefulSetSpec(set).revisionHistoryLimit ?? 10);
  for (const revision of oldestUnprotected(state.revisions, excess, isLive)) await client.delete(CONTROLLER_REVISIONS, revision);
}
