/**
 * policy/v1beta1 PodSecurityPolicy, removed upstream in 1.25 and so absent from the 1.26 data,
 * written from its documented 1.24 fields in the compact schema form.
 */
import type { Schema } from "../core/schema/types.ts";

const PREFIX = "io.k8s.api.policy.v1beta1.";
const GVK = { group: "policy", version: "v1beta1" };

const string: Schema = { type: "string" };
const boolean: Schema = { type: "boolean" };
const stringList: Schema = { type: "array", items: { type: "string", default: "" } };

function listOf(name: string): Schema {
  return { type: "array", items: { ref: PREFIX + name, default: {} } };
}

function object(properties: Record<string, Schema>, required: string[] = []): Schema {
  return required.length === 0 ? { type: "object", properties } : { type: "object", properties, required };
}

function ruleWithRanges(ruleRequired: boolean): Schema {
  return object({ ranges: listOf("IDRange"), rule: { ...string, ...(ruleRequired ? { default: "" } : {}) } }, ruleRequired ? ["rule"] : []);
}

function range(format: "int32" | "int64"): Schema {
  const bound: Schema = { type: "integer", format, default: 0 };
  return object({ max: bound, min: bound }, ["min", "max"]);
}

const spec = object({
  allowPrivilegeEscalation: boolean,
  allowedCSIDrivers: listOf("AllowedCSIDriver"),
  allowedCapabilities: stringList,
  allowedFlexVolumes: listOf("AllowedFlexVolume"),
  allowedHostPaths: listOf("AllowedHostPath"),
  allowedProcMountTypes: stringList,
  allowedUnsafeSysctls: stringList,
  defaultAddCapabilities: stringList,
  defaultAllowPrivilegeEscalation: boolean,
  forbiddenSysctls: stringList,
  fsGroup: { ref: PREFIX + "FSGroupStrategyOptions", default: {} },
  hostIPC: boolean,
  hostNetwork: boolean,
  hostPID: boolean,
  hostPorts: listOf("HostPortRange"),
  privileged: boolean,
  readOnlyRootFilesystem: boolean,
  requiredDropCapabilities: stringList,
  runAsGroup: { ref: PREFIX + "RunAsGroupStrategyOptions" },
  runAsUser: { ref: PREFIX + "RunAsUserStrategyOptions", default: {} },
  runtimeClass: { ref: PREFIX + "RuntimeClassStrategyOptions" },
  seLinux: { ref: PREFIX + "SELinuxStrategyOptions", default: {} },
  supplementalGroups: { ref: PREFIX + "SupplementalGroupsStrategyOptions", default: {} },
  volumes: stringList,
}, ["seLinux", "runAsUser", "supplementalGroups", "fsGroup"]);

/** The hand-written definitions, keyed by definition name. */
export const POD_SECURITY_POLICY_DEFINITIONS: Record<string, Schema> = {
  [PREFIX + "AllowedCSIDriver"]: object({ name: { ...string, default: "" } }, ["name"]),
  [PREFIX + "AllowedFlexVolume"]: object({ driver: { ...string, default: "" } }, ["driver"]),
  [PREFIX + "AllowedHostPath"]: object({ pathPrefix: string, readOnly: boolean }),
  [PREFIX + "FSGroupStrategyOptions"]: ruleWithRanges(false),
  [PREFIX + "HostPortRange"]: range("int32"),
  [PREFIX + "IDRange"]: range("int64"),
  [PREFIX + "PodSecurityPolicy"]: {
    type: "object",
    properties: {
      apiVersion: string,
      kind: string,
      metadata: { ref: "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta", default: {} },
      spec: { ref: PREFIX + "PodSecurityPolicySpec", default: {} },
    },
    "x-kubernetes-group-version-kind": [{ ...GVK, kind: "PodSecurityPolicy" }],
  },
  [PREFIX + "PodSecurityPolicyList"]: {
    type: "object",
    properties: {
      apiVersion: string,
      items: listOf("PodSecurityPolicy"),
      kind: string,
      metadata: { ref: "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta", default: {} },
    },
    required: ["items"],
    "x-kubernetes-group-version-kind": [{ ...GVK, kind: "PodSecurityPolicyList" }],
  },
  [PREFIX + "PodSecurityPolicySpec"]: spec,
  [PREFIX + "RunAsGroupStrategyOptions"]: ruleWithRanges(true),
  [PREFIX + "RunAsUserStrategyOptions"]: ruleWithRanges(true),
  [PREFIX + "RuntimeClassStrategyOptions"]: object({
    allowedRuntimeClassNames: stringList,
    defaultRuntimeClassName: string,
  }, ["allowedRuntimeClassNames"]),
  [PREFIX + "SELinuxStrategyOptions"]: object({
    rule: { ...string, default: "" },
    seLinuxOptions: { ref: "io.k8s.api.core.v1.SELinuxOptions" },
  }, ["rule"]),
  [PREFIX + "SupplementalGroupsStrategyOptions"]: ruleWithRanges(false),
};
