/**
 * Defaults of a PodSpec wherever one appears: in a Pod and in every pod template (PodTemplate,
 * ReplicationController, Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob's jobTemplate).
 */
import { defaultContainer, defaultHostNetworkPorts } from "./container.ts";
import { defaultVolume } from "./volumes.ts";
import { defaultPointer, defaultString, type Fields, objectAt, objectsAt } from "./_fields.ts";

const TERMINATION_GRACE_PERIOD_SECONDS = 30;

export function defaultPodSpec(spec: Fields): void {
  defaultString(spec, "dnsPolicy", "ClusterFirst");
  defaultString(spec, "restartPolicy", "Always");
  // kube 1.26 still does this in SetDefaults_PodSpec, so templates get host ports too.
  if (spec.hostNetwork === true) {
    for (const container of [...objectsAt(spec, "containers"), ...objectsAt(spec, "initContainers")]) defaultHostNetworkPorts(container);
  }
  defaultPointer(spec, "securityContext", {});
  defaultPointer(spec, "terminationGracePeriodSeconds", TERMINATION_GRACE_PERIOD_SECONDS);
  defaultString(spec, "schedulerName", "default-scheduler");
  for (const volume of objectsAt(spec, "volumes")) defaultVolume(volume);
  for (const key of ["initContainers", "containers", "ephemeralContainers"]) {
    for (const container of objectsAt(spec, key)) defaultContainer(container);
  }
}

/** A PodTemplateSpec (`{metadata, spec}`) under `key` of `parent`, when present. */
export function defaultTemplateAt(parent: Fields | undefined, key = "template"): void {
  const spec = objectAt(objectAt(parent, key), "spec");
  if (spec) defaultPodSpec(spec);
}
