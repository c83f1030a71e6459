/**
 * The selectable fields of kube 1.26's kinds: which field labels the list handler accepts (the
 * AddFieldLabelConversionFunc registrations in k8s.io/kubernetes pkg/apis/<group>/<version>/conversion.go) and the
 * values an object offers for them (each registry strategy's ToSelectableFields / GetAttrs). Each kind's
 * definition (core/registry/kind-facts.ts) names the set it uses.
 */
import type { FieldLabelRules } from "./field-selector.ts";
import { isPlainObject, type KubeObject } from "./types.ts";

type Fields = Record<string, string>;

/** A kind's selectable fields: the accepted labels (accepted label → matched label; aliases differ) and their values. */
export interface KindFields extends FieldLabelRules {
  /** Kind-specific values; metadata.name and metadata.namespace are added for every kind. */
  extract?: (obj: unknown) => Fields;
}

const notSupported = (label: string) => `field label not supported: ${label}`;
const identity = (...labels: string[]): Record<string, string> => Object.fromEntries(labels.map((l) => [l, l]));
/** The value at a path of plain-object keys and array indexes, or undefined. */
function at(value: unknown, ...path: (string | number)[]): unknown {
  for (const step of path) {
    if (typeof step === "number" ? !Array.isArray(value) : !isPlainObject(value)) return undefined;
    value = (value as Record<string | number, unknown>)[step];
  }
  return value;
}

const text = (value: unknown) => (typeof value === "string" ? value : "");
const integer = (value: unknown) => String(typeof value === "number" ? value : 0);
const flag = (value: unknown) => String(value === true);
const NAMESPACED_META = ["metadata.name", "metadata.namespace"];

const coreEventFields = (e: unknown): Fields => ({
  "involvedObject.kind": text(at(e, "involvedObject", "kind")),
  "involvedObject.namespace": text(at(e, "involvedObject", "namespace")),
  "involvedObject.name": text(at(e, "involvedObject", "name")),
  "involvedObject.uid": text(at(e, "involvedObject", "uid")),
  "involvedObject.apiVersion": text(at(e, "involvedObject", "apiVersion")),
  "involvedObject.resourceVersion": text(at(e, "involvedObject", "resourceVersion")),
  "involvedObject.fieldPath": text(at(e, "involvedObject", "fieldPath")),
  reason: text(at(e, "reason")),
  reportingComponent: text(at(e, "reportingComponent")),
  source: text(at(e, "source", "component")) || text(at(e, "reportingComponent")),
  type: text(at(e, "type")),
});

const EVENT_LABELS = [
  "involvedObject.kind",
  "involvedObject.namespace",
  "involvedObject.name",
  "involvedObject.uid",
  "involvedObject.apiVersion",
  "involvedObject.resourceVersion",
  "involvedObject.fieldPath",
  "reason",
  "reportingComponent",
  "source",
  "type",
];

/** events.k8s.io/v1 spells the core labels differently; the matched set is the core one. */
const EVENTS_V1_ALIASES: Record<string, string> = {
  ...identity("reason", "source", "type", ...NAMESPACED_META),
  ...Object.fromEntries(
    ["kind", "namespace", "name", "uid", "apiVersion", "resourceVersion", "fieldPath"].map((
      f,
    ) => [`regarding.${f}`, `involvedObject.${f}`]),
  ),
  reportingController: "reportingComponent",
};

export const POD_FIELDS: KindFields = {
  accepted: {
    ...identity(
      ...NAMESPACED_META,
      "spec.nodeName",
      "spec.restartPolicy",
      "spec.schedulerName",
      "spec.serviceAccountName",
      "spec.hostNetwork",
      "status.phase",
      "status.podIP",
      "status.nominatedNodeName",
    ),
    "spec.host": "spec.nodeName",
  },
  reject: notSupported,
  extract: (p) => ({
    "spec.nodeName": text(at(p, "spec", "nodeName")),
    "spec.restartPolicy": text(at(p, "spec", "restartPolicy")),
    "spec.schedulerName": text(at(p, "spec", "schedulerName")),
    "spec.serviceAccountName": text(at(p, "spec", "serviceAccountName")),
    "spec.hostNetwork": flag(at(p, "spec", "hostNetwork")),
    "status.phase": text(at(p, "status", "phase")),
    "status.podIP": text(at(p, "status", "podIPs", 0, "ip")) || text(at(p, "status", "podIP")),
    "status.nominatedNodeName": text(at(p, "status", "nominatedNodeName")),
  }),
};

export const NODE_FIELDS: KindFields = {
  accepted: identity("metadata.name", "spec.unschedulable"),
  reject: notSupported,
  extract: (n) => ({ "spec.unschedulable": flag(at(n, "spec", "unschedulable")) }),
};

export const NAMESPACE_FIELDS: KindFields = {
  accepted: identity("metadata.name", "status.phase"),
  reject: notSupported,
  extract: (n) => ({ "status.phase": text(at(n, "status", "phase")) }),
};

export const SECRET_FIELDS: KindFields = {
  accepted: identity(...NAMESPACED_META, "type"),
  reject: notSupported,
  extract: (s) => ({ type: text(at(s, "type")) }),
};

export const REPLICATION_CONTROLLER_FIELDS: KindFields = {
  accepted: identity(...NAMESPACED_META, "status.replicas"),
  reject: notSupported,
  extract: (rc) => ({ "status.replicas": integer(at(rc, "status", "replicas")) }),
};

export const CORE_EVENT_FIELDS: KindFields = {
  accepted: identity(...NAMESPACED_META, ...EVENT_LABELS),
  reject: notSupported,
  extract: coreEventFields,
};

export const EVENTS_V1_FIELDS: KindFields = {
  accepted: EVENTS_V1_ALIASES,
  reject: notSupported,
  extract: (e) =>
    coreEventFields({
      involvedObject: at(e, "regarding"),
      reason: at(e, "reason"),
      reportingComponent: at(e, "reportingController"),
      source: at(e, "deprecatedSource"),
      type: at(e, "type"),
    }),
};

export const JOB_FIELDS: KindFields = {
  accepted: identity(...NAMESPACED_META, "status.successful"),
  reject: (label) => `field label "${label}" not supported for batchv1.Job`,
  extract: (j) => ({ "status.successful": integer(at(j, "status", "succeeded")) }),
};

export const CERTIFICATE_SIGNING_REQUEST_FIELDS: KindFields = {
  accepted: identity("metadata.name", "spec.signerName"),
  reject: notSupported,
  extract: (c) => ({ "spec.signerName": text(at(c, "spec", "signerName")) }),
};

/** runtime.DefaultMetaV1FieldSelectorConversion: what every other built-in kind (apps, rbac, ...) accepts. */
export const DEFAULT_FIELDS: KindFields = {
  accepted: identity(...NAMESPACED_META),
  reject: (label) => `"${label}" is not a known field selector: only "metadata.name", "metadata.namespace"`,
};

/** apiextensions' crConverter.ConvertFieldLabel: metadata.name, plus metadata.namespace when namespaced. */
export function customResourceFields(namespaced: boolean): KindFields {
  return { accepted: identity(...(namespaced ? NAMESPACED_META : ["metadata.name"])), reject: notSupported };
}

/** The field set a selector is matched against; metadata.namespace is "" for cluster-scoped objects. */
export function fieldsOf(kind: KindFields, obj: KubeObject): Fields {
  const meta: Fields = { "metadata.name": obj.metadata?.name ?? "", "metadata.namespace": obj.metadata?.namespace ?? "" };
  return kind.extract ? { ...kind.extract(obj), ...meta } : meta;
}
