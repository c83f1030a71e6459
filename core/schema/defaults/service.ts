/** core/v1 SetDefaults_Service of kube 1.26. Cluster IPs and IP families are allocated elsewhere. */
import type { KubeObject } from "../../api/types.ts";
import { defaultPointer, defaultString, objectAt, objectsAt } from "./_fields.ts";

/** Three hours: how long ClientIP affinity sticks when the client does not say. */
const CLIENT_IP_AFFINITY_SECONDS = 10800;

export function defaultService(service: KubeObject): void {
  const spec = objectAt(service, "spec");
  if (!spec) return;
  defaultString(spec, "sessionAffinity", "None");
  if (spec.sessionAffinity === "None") delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === "ClientIP") {
    const clientIP = objectAt(objectAt(spec, "sessionAffinityConfig"), "clientIP");
    if (clientIP?.timeoutSeconds === undefined || clientIP.timeoutSeconds === null) {
      spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: CLIENT_IP_AFFINITY_SECONDS } };
    }
  }
  defaultString(spec, "type", "ClusterIP");
  for (const port of objectsAt(spec, "ports")) {
    defaultString(port, "protocol", "TCP");
    // An unset, zero or empty targetPort means "the same as port".
    const unsetTarget = port.targetPort === undefined || port.targetPort === null || port.targetPort === 0 || port.targetPort === "";
    if (unsetTarget && port.port !== undefined) port.targetPort = port.port;
  }
  if (spec.type === "NodePort" || spec.type === "LoadBalancer") defaultString(spec, "externalTrafficPolicy", "Cluster");
  if (spec.type === "NodePort" || spec.type === "LoadBalancer" || spec.type === "ClusterIP") {
    defaultPointer(spec, "internalTrafficPolicy", "Cluster");
  }
  if (spec.type === "LoadBalancer") defaultPointer(spec, "allocateLoadBalancerNodePorts", true);
}
