/**
 * Priority: a pod's priority comes from its PriorityClass (or the global default class); a pod naming a missing
 * class is refused. The two system classes are known even before their objects exist. An update keeps the
 * priority and preemption policy set on create when the new object leaves them out (kube's admitPod).
 */
import { admissionForbidden } from "../../core/admission/errors.ts";
import type { KubeObject } from "../../core/api/types.ts";
import type { AdmissionAttributes, BuiltInAdmissionFactory } from "../../core/admission/types.ts";
import type { ReadOnlyClient } from "../../core/api/client.ts";
import { isWriteTo, podSpec } from "../_match.ts";

interface PriorityClass {
  name: string;
  value: number;
  preemptionPolicy: string;
}

type PrioritySpec = { priorityClassName?: string; priority?: number | null; preemptionPolicy?: string | null };

/** Pod validation refuses changes to both fields; one left out (a replaced manifest, an apply) keeps the stored value. */
function keepPriorityOf(spec: PrioritySpec, old: PrioritySpec): void {
  // A JSON null decodes to Go's nil, as an absent field does.
  if (spec.priority == null && old.priority != null) spec.priority = old.priority;
  if (spec.preemptionPolicy == null && old.preemptionPolicy != null) spec.preemptionPolicy = old.preemptionPolicy;
}

const PREEMPT_LOWER = "PreemptLowerPriority";
const SYSTEM_CLASSES: Record<string, number> = { "system-node-critical": 2000001000, "system-cluster-critical": 2000000000 };
const PRIORITY_CLASSES = { group: "scheduling.k8s.io", version: "v1", resource: "priorityclasses" };

const priority: BuiltInAdmissionFactory = ({ client }) => ({
  name: "Priority",
  handles: (attributes) => isWriteTo(attributes, "", "pods", ["CREATE", "UPDATE"]),
  async admit(attributes) {
    const spec = podSpec(attributes.object!) as PrioritySpec;
    if (attributes.operation === "UPDATE") {
      keepPriorityOf(spec, podSpec(attributes.oldObject!) as PrioritySpec);
      return;
    }
    const chosen = spec.priorityClassName ? await namedClass(client, spec.priorityClassName, attributes) : await globalDefault(client);
    const value = chosen?.value ?? 0;
    const policy = chosen?.preemptionPolicy ?? PREEMPT_LOWER;
    if (spec.priority !== undefined && spec.priority !== value) {
      throw admissionForbidden(
        attributes,
        `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${value} from the given PriorityClass name`,
      );
    }
    if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== policy) {
      throw admissionForbidden(
        attributes,
        `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`,
      );
    }
    if (chosen) spec.priorityClassName = chosen.name;
    spec.priority = value;
    spec.preemptionPolicy = policy;
  },
});

async function namedClass(client: ReadOnlyClient, name: string, attributes: AdmissionAttributes): Promise<PriorityClass> {
  const stored = await client.get({ ...PRIORITY_CLASSES, name });
  if (stored) return classOf(stored);
  const systemValue = SYSTEM_CLASSES[name];
  if (systemValue !== undefined) return { name, value: systemValue, preemptionPolicy: PREEMPT_LOWER };
  throw admissionForbidden(attributes, `no PriorityClass with name ${name} was found`);
}

/** The global default class; with several, the one with the lowest value (kube's getDefaultPriorityClass). */
async function globalDefault(client: ReadOnlyClient): Promise<PriorityClass | undefined> {
  const defaults = (await client.list(PRIORITY_CLASSES)).filter((c) => c.globalDefault === true).map(classOf);
  return defaults.sort((a, b) => a.value - b.value)[0];
}

function classOf(stored: KubeObject): PriorityClass {
  return {
    name: String(stored.metadata.name),
    value: Number(stored.value ?? 0),
    preemptionPolicy: String(stored.preemptionPolicy ?? PREEMPT_LOWER),
  };
}

export default priority;
