/**
 * LimitRanger: a new pod's containers get default requests and limits from the namespace's LimitRanges
 * (type Container), then the pod must stay within every Container- and Pod-type min, max and
 * maxLimitRequestRatio, and a PersistentVolumeClaim within PersistentVolumeClaim-type min and max storage.
 */
import { admissionForbidden } from "../../core/admission/errors.ts";
import type { KubeObject } from "../../core/api/types.ts";
import type { BuiltInAdmissionFactory } from "../../core/admission/types.ts";
import { isWriteTo } from "../_match.ts";
import { applyDefaults, type LimitItem } from "./defaults.ts";
import { claimViolations, podContainers, podViolations } from "./validate.ts";

const ANNOTATION = "kubernetes.io/limit-ranger";

const limitRanger: BuiltInAdmissionFactory = ({ client }) => {
  const limitItems = async (namespace: string) => {
    const ranges = await client.list({ group: "", version: "v1", resource: "limitranges", namespace });
    return ranges.flatMap((range: KubeObject) => (range.spec as { limits?: LimitItem[] } | undefined)?.limits ?? []);
  };
  const isPodCreate = (attributes: Parameters<typeof isWriteTo>[0]) => isWriteTo(attributes, "", "pods", ["CREATE"]);
  return {
    name: "LimitRanger",
    handles: (attributes) => isPodCreate(attributes) || isWriteTo(attributes, "", "persistentvolumeclaims", ["CREATE", "UPDATE"]),
    async admit(attributes) {
      if (!isPodCreate(attributes)) return;
      const { object, namespace } = attributes;
      const notes: string[] = [];
      for (const item of (await limitItems(namespace)).filter((i) => i.type === "Container")) {
        for (const container of podContainers(object!)) notes.push(...applyDefaults(container, item));
      }
      if (notes.length > 0) {
        object!.metadata.annotations = { ...object!.metadata.annotations, [ANNOTATION]: `LimitRanger plugin set: ${notes.join("; ")}` };
      }
    },
    async validate(attributes) {
      const violations = isPodCreate(attributes) ? podViolations : claimViolations;
      const errors = (await limitItems(attributes.namespace)).flatMap((item) => violations(attributes.object!, item));
      if (errors.length > 0) throw admissionForbidden(attributes, errors.length === 1 ? errors[0]! : `[${errors.join(", ")}]`);
    },
  };
};

export default limitRanger;
