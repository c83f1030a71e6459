/**
 * The DaemonSet controller: records each template as a ControllerRevision, keeps one pod on every eligible
 * node (planDaemonPods), rolls pods to the current revision once nothing else is pending (planRollingUpdate),
 * prunes old revisions no pod uses, and reports status. Reacts to Node changes, so a new Ready node gets its pod.
 */
import type { KubeObject } from "../../api/types.ts";
import { collectionPrefix } from "../../registry/keys.ts";
import { adoptOrphans } from "./adopt.ts";
import { CONTROLLER_REVISIONS, type ControllerClient, DAEMON_SETS, NODES, PODS } from "./client.ts";
import { CONTROLLER_REVISION_HASH, oldestUnprotected, syncTemplateRevision, templateOf } from "./controller-revision.ts";
import { type DaemonSetPlan, type DaemonView, planDaemonPods, planRollingUpdate, podsByTargetNode } from "./daemonset-plan.ts";
import { newDaemonPod } from "./daemonset-pods.ts";
import { DAEMON_SET_STATUS_ALWAYS_WRITTEN, daemonSetStatus } from "./daemonset-status.ts";
import { type ControlLoop, startLoop, syncEach } from "./loop.ts";
import { createPodFor, deletePodFor } from "./pod-control.ts";
import { isControlledBy } from "./owner.ts";
import { writeStatusIfChanged } from "./status-write.ts";
import { templateHash } from "./template-hash.ts";
import { compareByteOrder } from "../../api/byte-order.ts";

const RESYNC_MS = 2000;
const COMPONENT = "daemonset-controller";

export function startDaemonSetController(client: ControllerClient): ControlLoop {
  const sets = client.store(DAEMON_SETS);
  const pass = async () => {
    const nodes = (await client.list(NODES)).sort((a, b) => compareByteOrder(String(a.metadata.name), String(b.metadata.name)));
    const pods = await client.list(PODS);
    const revisions = await client.list(CONTROLLER_REVISIONS);
    await syncEach(await client.list(DAEMON_SETS), (ds) => {
      const inNamespace = (obj: KubeObject) => obj.metadata.namespace === ds.metadata.namespace;
      return syncDaemonSet(client, ds, { nodes, pods: pods.filter(inNamespace), revisions: revisions.filter(inNamespace) });
    });
  };
  return startLoop(sets.changes, pass, {
    name: "daemonset",
    prefixes: [DAEMON_SETS, PODS, NODES, CONTROLLER_REVISIONS].map((ref) => collectionPrefix(client.store(ref).type, "")),
    resyncMs: RESYNC_MS,
  });
}

async function syncDaemonSet(
  client: ControllerClient,
  ds: KubeObject,
  state: { nodes: KubeObject[]; pods: KubeObject[]; revisions: KubeObject[] },
): Promise<void> {
  const pods = [...state.pods.filter((pod) => isControlledBy(pod, ds)), ...await adoptOrphans(client, PODS, ds, { objects: state.pods })];
  const owned = [
    ...state.revisions.filter((r) => isControlledBy(r, ds)),
    ...await adoptOrphans(client, CONTROLLER_REVISIONS, ds, { objects: state.revisions }),
  ];
  const collisionCount = (ds.status as { collisionCount?: number } | undefined)?.collisionCount ?? 0;
  const revisions = await syncTemplateRevision(client, DAEMON_SETS, ds, { owned, hash: templateHash(templateOf(ds), collisionCount) });
  if (!revisions) return;
  const hash = revisions.update.metadata.labels?.[CONTROLLER_REVISION_HASH] ?? String(revisions.update.metadata.name);
  const view: DaemonView = { nodes: state.nodes, podsByNode: podsByTargetNode(pods), hash, now: Date.now() };
  if (!ds.metadata.deletionTimestamp) {
    const managed = planDaemonPods(ds, view);
    const changed = await apply(client, ds, managed, hash);
    // Like kube's expectations: the rollout moves only once the last pass's creations and deletions are seen.
    const rolling = (ds.spec as { updateStrategy?: { type?: string } } | undefined)?.updateStrategy?.type === "RollingUpdate";
    if (!changed && rolling) await apply(client, ds, planRollingUpdate(ds, view), hash);
    await pruneHistory(client, ds, { pods, revisions: revisions.all.filter((r) => r !== revisions.update) });
  }
  await writeStatusIfChanged(client, DAEMON_SETS, ds, daemonSetStatus(ds, view), DAEMON_SET_STATUS_ALWAYS_WRITTEN);
}

async function apply(client: ControllerClient, ds: KubeObject, plan: DaemonSetPlan, hash: string): Promise<boolean> {
  for (const node of plan.createOn) await createPodFor(client, ds, newDaemonPod(ds, node, hash), COMPONENT);
  for (const pod of plan.remove) await deletePodFor(client, ds, pod, COMPONENT);
  return plan.createOn.length + plan.remove.length > 0;
}

/** Deletes the oldest revisions beyond revisionHistoryLimit whose hash no pod carries. */
async function pruneHistory(
  client: ControllerClient,
  ds: KubeObject,
  state: { pods: KubeObject[]; revisions: KubeObject[] },
): Promise<void> {
  const liveHashes = new Set(state.pods.map((pod) => pod.metadata.labels?.[CONTROLLER_REVISION_HASH]));
  const limit = (ds.spec as { revisionHistoryLimit?: number } | undefined)?.revisionHistoryLimit ?? 10;
  const isLive = (r: KubeObject) => liveHashes.has(r.metadata.labels?.[CONTROLLER_REVISION_HASH]);
  for (const revision of oldestUnprotected(state.revisions, state.revisions.length - limit, isLive)) {
    await client.delete(CONTROLLER_REVISIONS, revision);
  }
}
