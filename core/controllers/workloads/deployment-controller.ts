/**
 * The Deployment controller: keeps one ReplicaSet per template revision, moves replicas from the old ones to
 * the new one by the RollingUpdate or Recreate strategy, prunes history and reports status (kube 1.26's
 * DeploymentController). ReplicaSet names derive from the template hash, so a pass repeated after a crash
 * finds what the last one made instead of making it again. Every scaling of a ReplicaSet records kube's Normal
 * ScalingReplicaSet Event on the Deployment (sync.go getNewReplicaSet and scaleReplicaSet); a refused ReplicaSet create
 * records getNewReplicaSet's Warning ReplicaSetCreateError "Failed to create new replica set "<rs>": <error>".
 */
import { isDeepStrictEqual } from "node:util";
import type { KubeObject } from "../../api/types.ts";
import { collectionPrefix } from "../../registry/keys.ts";
import { type ControllerClient, DEPLOYMENTS, REPLICA_SETS } from "./client.ts";
import {
  deploymentSpec,
  desiredReplicas,
  fenceposts,
  replicaSetsToPrune,
  rollingNewReplicas,
  rollingOldReplicas,
  specReplicas,
} from "./deployment-rollout.ts";
import {
  maxRevision,
  POD_TEMPLATE_HASH,
  replicaSetAnnotations,
  REVISION_ANNOTATION,
  revisionOf,
  sameTemplate,
} from "./deployment-revision.ts";
import { deploymentStatus } from "./deployment-status.ts";
import { type ControlLoop, startLoop, syncEach } from "./loop.ts";
import { isControlledBy, newControllerRef } from "./owner.ts";
import { writeStatusIfChanged } from "./status-write.ts";
import { templateHash } from "./template-hash.ts";
import { compareByteOrder } from "../../api/byte-order.ts";

const RESYNC_MS = 5000;
const COMPONENT = "deployment-controller";

export function startDeploymentController(client: ControllerClient): ControlLoop {
  const deployments = client.store(DEPLOYMENTS);
  const pass = async () => {
    const sets = await client.list(REPLICA_SETS);
    const live = (await client.list(DEPLOYMENTS)).filter((d) => !d.metadata.deletionTimestamp);
    await syncEach(
      live,
      (d) => syncDeployment(client, d, sets.filter((rs) => rs.metadata.namespace === d.metadata.namespace && isControlledBy(rs, d))),
    );
  };
  return startLoop(deployments.changes, pass, {
    name: "deployment",
    prefixes: [collectionPrefix(deployments.type, ""), collectionPrefix(client.store(REPLICA_SETS).type, "")],
    resyncMs: RESYNC_MS,
  });
}

async function syncDeployment(client: ControllerClient, d: KubeObject, owned: KubeObject[]): Promise<void> {
  const spec = deploymentSpec(d);
  const byAge = [...owned].sort((a, b) => compareByteOrder(String(a.metadata.creationTimestamp), String(b.metadata.creationTimestamp)));
  let newRS = byAge.find((rs) => sameTemplate((rs.spec as { template?: unknown }).template, spec.template));
  const old = owned.filter((rs) => rs !== newRS);
  let createdNewRS = false;
  if (!spec.paused) {
    const recreate = spec.strategy?.type === "Recreate";
    if (recreate && !(await recreateOldGone(client, d, old))) return await writeDeploymentStatus(client, d, newRS, owned, false);
    if (!newRS) {
      const initial = recreate ? desiredReplicas(d) : rollingNewReplicas(d, { metadata: {}, spec: { replicas: 0 } }, owned);
      newRS = await createNewReplicaSet(client, d, initial, maxRevision(old) + 1);
      if (!newRS) return;
      createdNewRS = true;
    }
    newRS = await scaleReplicaSet(
      client,
      d,
      newRS,
      recreate ? desiredReplicas(d) : rollingNewReplicas(d, newRS, [newRS, ...old]),
      maxRevision(old),
    );
    if (!recreate) {
      for (const [rs, replicas] of rollingOldReplicas(d, newRS, old)) await scaleReplicaSet(client, d, rs, replicas);
    }
    for (const rs of replicaSetsToPrune(d, old, revisionOf)) await client.delete(REPLICA_SETS, rs, { propagationPolicy: "Background" });
    d = await syncRevisionAnnotation(client, d, newRS);
  }
  await writeDeploymentStatus(client, d, newRS, newRS ? [newRS, ...old] : owned, createdNewRS);
}

async function writeDeploymentStatus(
  client: ControllerClient,
  d: KubeObject,
  newRS: KubeObject | undefined,
  all: KubeObject[],
  createdNewRS: boolean,
): Promise<void> {
  await writeStatusIfChanged(client, DEPLOYMENTS, d, deploymentStatus(d, newRS, all, { createdNewRS, now: Date.now() }));
}

/** Recreate scales every old ReplicaSet to zero and waits until their pods are gone (scaleDownOldReplicaSetsForRecreate). */
async function recreateOldGone(client: ControllerClient, d: KubeObject, old: KubeObject[]): Promise<boolean> {
  let gone = true;
  for (const rs of old) {
    if (specReplicas(rs) > 0) {
      await scaleReplicaSet(client, d, rs, 0);
      gone = false;
    }
    if (((rs.status as { replicas?: number } | undefined)?.replicas ?? 0) > 0) gone = false;
  }
  return gone;
}

async function createNewReplicaSet(
  client: ControllerClient,
  d: KubeObject,
  replicas: number,
  revision: number,
): Promise<KubeObject | undefined> {
  const spec = deploymentSpec(d);
  const collisionCount = (d.status as { collisionCount?: number } | undefined)?.collisionCount ?? 0;
  const hash = templateHash(spec.template, collisionCount);
  const labels = { ...spec.template?.metadata?.labels, [POD_TEMPLATE_HASH]: hash };
  const rs: KubeObject = {
    apiVersion: "apps/v1",
    kind: "ReplicaSet",
    metadata: {
      name: `${d.metadata.name}-${hash}`,
      namespace: d.metadata.namespace,
      labels,
      annotations: replicaSetAnnotations(d, undefined, {
        revision,
        desired: desiredReplicas(d),
        max: desiredReplicas(d) + fenceposts(d).maxSurge,
      }),
      ownerReferences: [newControllerRef(d)],
    },
    spec: {
      replicas,
      minReadySeconds: spec.minReadySeconds ?? 0,
      selector: { ...spec.selector, matchLabels: { ...spec.selector?.matchLabels, [POD_TEMPLATE_HASH]: hash } },
      template: { ...spec.template, metadata: { ...spec.template?.metadata, labels } },
    },
  };
  const created = await client.create(REPLICA_SETS, rs).catch((error: Error) => {
    const message = `Failed to create new replica set "${rs.metadata.name}": ${error.message}`;
    client.recordEvent(d, { type: "Warning", reason: "ReplicaSetCreateError", message, component: COMPONENT });
    throw error;
  });
  if (created) {
    if (replicas > 0) {
      const message = `Scaled up replica set ${created.metadata.name} to ${replicas}`;
      client.recordEvent(d, { type: "Normal", reason: "ScalingReplicaSet", message, component: COMPONENT });
    }
    return created;
  }
  const existing = await client.get(REPLICA_SETS, String(d.metadata.namespace), String(rs.metadata.name));
  if (existing && isControlledBy(existing, d) && sameTemplate((existing.spec as { template?: unknown }).template, spec.template)) {
    return existing;
  }
  // Another object holds the name: the next pass tries the hash of collisionCount + 1 (kube's collision avoidance).
  await client.updateStatus(DEPLOYMENTS, { ...d, status: { ...(d.status as object), collisionCount: collisionCount + 1 } });
  return undefined;
}

/**
 * Sets replicas and the replica-bound annotations; `revisionAbove` makes the set the newest revision (an undo).
 * A change of replicas records "Scaled up|down replica set <rs> to <new> from <old>" (kube 1.26's scaleReplicaSet).
 */
async function scaleReplicaSet(
  client: ControllerClient,
  d: KubeObject,
  rs: KubeObject,
  replicas: number,
  revisionAbove?: number,
): Promise<KubeObject> {
  const revision = revisionAbove !== undefined && revisionOf(rs) <= revisionAbove ? revisionAbove + 1 : revisionOf(rs);
  const current = rs.metadata.annotations ?? {};
  const annotations = revisionAbove === undefined
    ? current
    : replicaSetAnnotations(d, current, { revision, desired: desiredReplicas(d), max: desiredReplicas(d) + fenceposts(d).maxSurge });
  const unchanged = specReplicas(rs) === replicas && isDeepStrictEqual(annotations, current);
  if (unchanged) return rs;
  const updated = await client.update(REPLICA_SETS, {
    ...rs,
    metadata: { ...rs.metadata, annotations },
    spec: { ...(rs.spec as object), replicas },
  });
  const from = specReplicas(rs);
  if (from !== replicas) {
    const message = `Scaled ${from < replicas ? "up" : "down"} replica set ${updated.metadata.name} to ${replicas} from ${from}`;
    client.recordEvent(d, { type: "Normal", reason: "ScalingReplicaSet", message, component: COMPONENT });
  }
  return updated;
}

/**
 * kube's getNewReplicaSet writes the revision annotation through UpdateStatus: a main-resource update would bump the
 * generation, which counts a Deployment's annotations (deploymentStrategy.PrepareForUpdate).
 */
async function syncRevisionAnnotation(client: ControllerClient, d: KubeObject, newRS: KubeObject): Promise<KubeObject> {
  const revision = String(revisionOf(newRS));
  if (d.metadata.annotations?.[REVISION_ANNOTATION] === revision) return d;
  return await client.updateStatus(DEPLOYMENTS, {
    ...d,
    metadata: { ...d.metadata, annotations: { ...d.metadata.annotations, [REVISION_ANNOTATION]: revision } },
  });
}
