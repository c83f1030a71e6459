/** Defaults of one container (core/v1 SetDefaults_Container and the nested defaulters kube's generated code walks). */
import { defaultPullPolicy } from "./image-pull-policy.ts";
import { defaultNumber, defaultPointer, defaultString, type Fields, objectAt, objectsAt } from "./_fields.ts";

const PROBES = ["livenessProbe", "readinessProbe", "startupProbe"];
const LIFECYCLE_HANDLERS = ["postStart", "preStop"];

/** Regular, init and ephemeral containers alike. */
export function defaultContainer(container: Fields): void {
  defaultString(container, "imagePullPolicy", defaultPullPolicy(container.image));
  defaultString(container, "terminationMessagePath", "/dev/termination-log");
  defaultString(container, "terminationMessagePolicy", "File");
  for (const port of objectsAt(container, "ports")) defaultString(port, "protocol", "TCP");
  for (const env of objectsAt(container, "env")) defaultFieldRef(objectAt(objectAt(env, "valueFrom"), "fieldRef"));
  for (const name of PROBES) defaultProbe(objectAt(container, name));
  const lifecycle = objectAt(container, "lifecycle");
  for (const name of LIFECYCLE_HANDLERS) defaultHttpGet(objectAt(objectAt(lifecycle, name), "httpGet"));
}

function defaultProbe(probe: Fields | undefined): void {
  if (!probe) return;
  defaultNumber(probe, "timeoutSeconds", 1);
  defaultNumber(probe, "periodSeconds", 10);
  defaultNumber(probe, "successThreshold", 1);
  defaultNumber(probe, "failureThreshold", 3);
  defaultHttpGet(objectAt(probe, "httpGet"));
  const grpc = objectAt(probe, "grpc");
  if (grpc) defaultPointer(grpc, "service", "");
}

function defaultHttpGet(action: Fields | undefined): void {
  if (!action) return;
  defaultString(action, "path", "/");
  defaultString(action, "scheme", "HTTP");
}

/** SetDefaults_ObjectFieldSelector: a downward-API field reference reads the v1 object. */
export function defaultFieldRef(fieldRef: Fields | undefined): void {
  if (fieldRef) defaultString(fieldRef, "apiVersion", "v1");
}

/** With host networking a container port is also the host port. */
export function defaultHostNetworkPorts(container: Fields): void {
  for (const port of objectsAt(container, "ports")) {
    if (typeof port.containerPort === "number") defaultNumber(port, "hostPort", port.containerPort);
  }
}
