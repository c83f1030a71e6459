/**
 * kube-controller-manager 1.26's --controllers flag: a list of names where `*` means every controller on by
 * default, `name` turns one on and `-name` turns one off (bootstrapsigner and tokencleaner are off by default).
 */

export const KNOWN_CONTROLLERS = [
  "attachdetach",
  "bootstrapsigner",
  "cloud-node-lifecycle",
  "clusterrole-aggregation",
  "cronjob",
  "csrapproving",
  "csrcleaner",
  "csrsigning",
  "daemonset",
  "deployment",
  "disruption",
  "endpoint",
  "endpointslice",
  "endpointslicemirroring",
  "ephemeral-volume",
  "garbagecollector",
  "horizontalpodautoscaling",
  "job",
  "namespace",
  "nodeipam",
  "nodelifecycle",
  "persistentvolume-binder",
  "persistentvolume-expander",
  "podgc",
  "pv-protection",
  "pvc-protection",
  "replicaset",
  "replicationcontroller",
  "resourcequota",
  "root-ca-cert-publisher",
  "route",
  "service",
  "serviceaccount",
  "serviceaccount-token",
  "statefulset",
  "tokencleaner",
  "ttl",
  "ttl-after-finished",
] as const;

export const DISABLED_BY_DEFAULT = new Set(["bootstrapsigner", "tokencleaner"]);

/** The messages kube's validation gives for names it does not know. */
export function validateControllerList(list: string[]): string[] {
  const known = new Set<string>(KNOWN_CONTROLLERS);
  return list
    .filter((entry) => entry !== "*")
    .map((entry) => entry.replace(/^-/, ""))
    .filter((name) => !known.has(name))
    .map((name) => `${JSON.stringify(name)} is not in the list of known controllers`);
}

/** kube's IsControllerEnabled: the first explicit mention wins, otherwise `*` enables the default ones. */
export function isControllerEnabled(name: string, list: string[]): boolean {
  let star = false;
  for (const entry of list) {
    if (entry === name) return true;
    if (entry === `-${name}`) return false;
    if (entry === "*") star = true;
  }
  return star && !DISABLED_BY_DEFAULT.has(name);
}
