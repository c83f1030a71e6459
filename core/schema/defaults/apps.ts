/** apps/v1 defaults (pkg/apis/apps/v1/defaults.go of kube 1.26). */
import type { KubeObject } from "../../api/types.ts";
import { defaultPersistentVolumeClaim } from "./core.ts";
import { defaultTemplateAt } from "./pod-spec.ts";
import { defaultPointer, defaultString, ensureObject, type Fields, objectAt, objectsAt } from "./_fields.ts";
import type { KindDefaulters } from "./_registry.ts";

const REVISION_HISTORY_LIMIT = 10;
const PROGRESS_DEADLINE_SECONDS = 600;

/** Defaults every apps/v1 workload shares: its pod template and, when asked, replicas and revision history. */
function withWorkloadDefaults(fill: (spec: Fields) => void, options: { replicas: boolean; revisionHistory: boolean }) {
  return (obj: KubeObject): void => {
    const spec = objectAt(obj, "spec");
    if (!spec) return;
    fill(spec);
    if (options.replicas) defaultPointer(spec, "replicas", 1);
    if (options.revisionHistory) defaultPointer(spec, "revisionHistoryLimit", REVISION_HISTORY_LIMIT);
    defaultTemplateAt(spec);
  };
}

/** A RollingUpdate strategy gets its rollingUpdate parameters; another type is left as it is. */
function defaultRollingUpdate(strategy: Fields, parameters: Record<string, number | string>): void {
  defaultString(strategy, "type", "RollingUpdate");
  if (strategy.type !== "RollingUpdate") return;
  const rollingUpdate = ensureObject(strategy, "rollingUpdate");
  if (!rollingUpdate) return;
  for (const [key, value] of Object.entries(parameters)) defaultPointer(rollingUpdate, key, value);
}

function defaultDeploymentSpec(spec: Fields): void {
  const strategy = ensureObject(spec, "strategy");
  if (strategy) defaultRollingUpdate(strategy, { maxUnavailable: "25%", maxSurge: "25%" });
  defaultPointer(spec, "progressDeadlineSeconds", PROGRESS_DEADLINE_SECONDS);
}

function defaultDaemonSetSpec(spec: Fields): void {
  const strategy = ensureObject(spec, "updateStrategy");
  if (strategy) defaultRollingUpdate(strategy, { maxUnavailable: 1, maxSurge: 0 });
}

/**
 * StatefulSet: only an unset strategy type gets an empty rollingUpdate; an explicit RollingUpdate
 * without one stays so. persistentVolumeClaimRetentionPolicy and maxUnavailable are not defaulted in
 * 1.26: their feature gates (StatefulSetAutoDeletePVC, MaxUnavailableStatefulSet) are alpha, off.
 */
function defaultStatefulSetSpec(spec: Fields): void {
  defaultString(spec, "podManagementPolicy", "OrderedReady");
  const strategy = ensureObject(spec, "updateStrategy");
  if (strategy && (strategy.type === undefined || strategy.type === null || strategy.type === "")) {
    strategy.type = "RollingUpdate";
    defaultPointer(strategy, "rollingUpdate", {});
  }
  const rollingUpdate = objectAt(strategy, "rollingUpdate");
  if (strategy?.type === "RollingUpdate" && rollingUpdate) defaultPointer(rollingUpdate, "partition", 0);
  for (const claim of objectsAt(spec, "volumeClaimTemplates")) defaultPersistentVolumeClaim(claim);
}

export const APPS_DEFAULTERS: KindDefaulters = {
  group: "apps",
  version: "v1",
  kinds: {
    Deployment: withWorkloadDefaults(defaultDeploymentSpec, { replicas: true, revisionHistory: true }),
    ReplicaSet: withWorkloadDefaults(() => {}, { replicas: true, revisionHistory: false }),
    StatefulSet: withWorkloadDefaults(defaultStatefulSetSpec, { replicas: true, revisionHistory: true }),
    DaemonSet: withWorkloadDefaults(defaultDaemonSetSpec, { replicas: false, revisionHistory: true }),
  },
};
