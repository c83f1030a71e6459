/** networking.k8s.io/v1 defaults (pkg/apis/networking/v1/defaults.go). Ingress paths get no pathType default in v1. */
import type { KubeObject } from "../../api/types.ts";
import { defaultPointer, isEmpty, objectAt, objectsAt } from "./_fields.ts";
import type { KindDefaulters } from "./_registry.ts";

function defaultNetworkPolicy(policy: KubeObject): void {
  const spec = objectAt(policy, "spec");
  if (!spec) return;
  for (const direction of ["ingress", "egress"]) {
    for (const rule of objectsAt(spec, direction)) {
      for (const port of objectsAt(rule, "ports")) defaultPointer(port, "protocol", "TCP");
    }
  }
  // A policy naming no types is an Ingress policy, and an Egress one too when it has egress rules.
  if (isEmpty(spec.policyTypes)) spec.policyTypes = isEmpty(spec.egress) ? ["Ingress"] : ["Ingress", "Egress"];
}

function defaultIngressClass(ingressClass: KubeObject): void {
  const parameters = objectAt(objectAt(ingressClass, "spec"), "parameters");
  if (parameters) defaultPointer(parameters, "scope", "Cluster");
}

export const NETWORKING_DEFAULTERS: KindDefaulters = {
  group: "networking.k8s.io",
  version: "v1",
  kinds: { NetworkPolicy: defaultNetworkPolicy, IngressClass: defaultIngressClass },
};
