/**
 * LimitRanger: a new pod's containers get default requests and limits from the namespace's LimitRanges
 * (type Container), then every container must stay within their min and max.
 */
import { admissionForbidden } from "../../core/admission/errors.ts";
import type { KubeObject } from "../../core/api/types.ts";
import type { BuiltInAdmissionFactory } from "../../core/admission/types.ts";
import { type Container, isWriteTo, podSpec } from "../_match.ts";
import { parseQuantity } from "../_quantity.ts";

type Resources = Record<string, string>;
interface LimitItem {
  type?: string;
  default?: Resources;
  defaultRequest?: Resources;
  min?: Resources;
  max?: Resources;
}

const ANNOTATION = "kubernetes.io/limit-ranger";

const limitRanger: BuiltInAdmissionFactory = ({ client }) => {
  const containerLimits = async (namespace: string) => {
    const ranges = await client.list({ group: "", version: "v1", resource: "limitranges", namespace });
    return ranges.flatMap((range: KubeObject) => ((range.spec as { limits?: LimitItem[] } | undefined)?.limits ?? []).filter((item) => item.type === "Container"));
  };
  return {
    name: "LimitRanger",
    handles: (attributes) => isWriteTo(attributes, "", "pods", ["CREATE"]),
    async admit({ object, namespace }) {
      const notes: string[] = [];
      for (const item of await containerLimits(namespace)) {
        for (const container of podContainers(object!)) notes.push(...applyDefaults(container, item));
      }
      if (notes.length > 0) object!.metadata.annotations = { ...object!.metadata.annotations, [ANNOTATION]: `LimitRanger plugin set: ${notes.join("; ")}` };
    },
    async validate(attributes) {
      const errors: string[] = [];
      for (const item of await containerLimits(attributes.namespace)) {
        for (const container of podContainers(attributes.object!)) errors.push(...violations(container, item));
      }
      if (errors.length > 0) throw admissionForbidden(attributes, errors.length === 1 ? errors[0]! : `[${errors.join(", ")}]`);
    },
  };
};

function podContainers(pod: KubeObject): Container[] {
  const spec = podSpec(pod);
  return [...(spec.initContainers ?? []), ...(spec.containers ?? [])];
}

/** kube's defaulting of a LimitRange item: defaultRequest falls back to default, default to max. */
function applyDefaults(container: Container, item: LimitItem): string[] {
  const limitDefaults = { ...item.max, ...item.default };
  const requestDefaults = { ...limitDefaults, ...item.defaultRequest };
  const resources = (container.resources ??= {});
  const setRequests = Object.keys(requestDefaults).filter((name) => resources.requests?.[name] === undefined && resources.limits?.[name] === undefined);
  const setLimits = Object.keys(limitDefaults).filter((name) => resources.limits?.[name] === undefined);
  for (const name of setRequests) resources.requests = { ...resources.requests, [name]: requestDefaults[name]! };
  for (const name of setLimits) resources.limits = { ...resources.limits, [name]: limitDefaults[name]! };
  const notes = [];
  if (setRequests.length > 0) notes.push(`${setRequests.join(", ")} request for container ${container.name}`);
  if (setLimits.length > 0) notes.push(`${setLimits.join(", ")} limit for container ${container.name}`);
  return notes;
}

function violations(container: Container, item: LimitItem): string[] {
  const requests = container.resources?.requests ?? {};
  const limits = container.resources?.limits ?? {};
  const errors: string[] = [];
  for (const [name, min] of Object.entries(item.min ?? {})) {
    if (requests[name] === undefined) errors.push(`minimum ${name} usage per Container is ${min}.  No request is specified`);
    else if (parseQuantity(requests[name]) < parseQuantity(min)) errors.push(`minimum ${name} usage per Container is ${min}, but request is ${requests[name]}`);
    else if (limits[name] !== undefined && parseQuantity(limits[name]) < parseQuantity(min)) errors.push(`minimum ${name} usage per Container is ${min}, but limit is ${limits[name]}`);
  }
  for (const [name, max] of Object.entries(item.max ?? {})) {
    if (limits[name] === undefined) errors.push(`maximum ${name} usage per Container is ${max}.  No limit is specified`);
    else if (parseQuantity(limits[name]) > parseQuantity(max)) errors.push(`maximum ${name} usage per Container is ${max}, but limit is ${limits[name]}`);
    else if (requests[name] !== undefined && parseQuantity(requests[name]) > parseQuantity(max)) errors.push(`maximum ${name} usage per Container is ${max}, but request is ${requests[name]}`);
  }
  return errors;
}

export default limitRanger;
