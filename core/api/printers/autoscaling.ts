/** Printers for HorizontalPodAutoscalers (autoscaling v1 and v2 shapes), Scales and PodDisruptionBudgets. */
import type { KubeObject } from "../types.ts";
import { listWithMore, quantityText } from "./_format.ts";
import { AGE_COLUMN, column, definePrinter, NAME_COLUMN } from "./_printer.ts";
import { ageOf } from "./duration.ts";

type Quantity = string | number;
interface MetricTarget {
  value?: Quantity;
  averageValue?: Quantity;
  averageUtilization?: number;
}
type MetricSource = { target?: MetricTarget; current?: MetricTarget };
interface Metric {
  type: string;
  resource?: MetricSource;
  containerResource?: MetricSource;
  pods?: MetricSource;
  object?: MetricSource;
  external?: MetricSource;
}

interface HorizontalPodAutoscaler extends KubeObject {
  spec?: {
    scaleTargetRef?: { kind?: string; name?: string };
    minReplicas?: number | null;
    maxReplicas?: number;
    metrics?: Metric[];
    targetCPUUtilizationPercentage?: number | null;
  };
  status?: { currentReplicas?: number; currentMetrics?: Metric[]; currentCPUUtilizationPercentage?: number | null };
}

const SOURCE_FIELDS: Record<string, keyof Metric> = {
  Resource: "resource",
  ContainerResource: "containerResource",
  Pods: "pods",
  Object: "object",
  External: "external",
};

/** autoscaling/v1 carries one CPU target; kube converts it to a Resource metric before printing. */
function metricsOf(hpa: HorizontalPodAutoscaler): [Metric[], Metric[]] {
  const spec = hpa.spec ?? {};
  if (spec.metrics || spec.targetCPUUtilizationPercentage === undefined || spec.targetCPUUtilizationPercentage === null) {
    return [spec.metrics ?? [], hpa.status?.currentMetrics ?? []];
  }
  const current = hpa.status?.currentCPUUtilizationPercentage;
  return [
    [{ type: "Resource", resource: { target: { averageUtilization: spec.targetCPUUtilizationPercentage } } }],
    current === undefined || current === null ? [] : [{ type: "Resource", resource: { current: { averageUtilization: current } } }],
  ];
}

/** One formatHPAMetrics entry: "current/target", with "(avg)" for object and external average values. */
function metricText(spec: Metric, status: Metric | undefined): string {
  const field = SOURCE_FIELDS[spec.type];
  if (!field) return "<unknown type>";
  const target = (spec[field] as MetricSource | undefined)?.target ?? {};
  const current = (status?.[field] as MetricSource | undefined)?.current;
  const known = (value: Quantity | undefined) => (value === undefined ? "<unknown>" : quantityText(value));
  if (spec.type === "Pods") return `${current ? quantityText(current.averageValue) : "<unknown>"}/${quantityText(target.averageValue)}`;
  if (spec.type === "Object" || spec.type === "External") {
    if (target.averageValue !== undefined) return `${known(current?.averageValue)}/${quantityText(target.averageValue)} (avg)`;
    return `${current ? quantityText(current.value) : "<unknown>"}/${quantityText(target.value)}`;
  }
  if (target.averageValue !== undefined) {
    return `${current ? quantityText(current.averageValue) : "<unknown>"}/${quantityText(target.averageValue)}`;
  }
  const percent = (n: number | undefined) => (n === undefined ? undefined : `${n}%`);
  return `${percent(current?.averageUtilization) ?? "<unknown>"}/${percent(target.averageUtilization) ?? "<auto>"}`;
}

function targetsText(hpa: HorizontalPodAutoscaler): string {
  const [specs, statuses] = metricsOf(hpa);
  if (specs.length === 0) return "<none>";
  return listWithMore(specs.map((spec, i) => metricText(spec, statuses[i])), { max: 2, separator: ", " });
}

export const horizontalPodAutoscalerPrinter = definePrinter<HorizontalPodAutoscaler>(
  [
    NAME_COLUMN,
    column("Reference", "The scaled resource, as kind/name"),
    column("Targets", "Current metric values against their targets"),
    column("MinPods", "Lower replica limit"),
    column("MaxPods", "Upper replica limit"),
    column("Replicas", "Current replicas"),
    AGE_COLUMN,
  ],
  (hpa, now) => {
    const min = hpa.spec?.minReplicas;
    return [
      hpa.metadata.name,
      `${hpa.spec?.scaleTargetRef?.kind ?? ""}/${hpa.spec?.scaleTargetRef?.name ?? ""}`,
      targetsText(hpa),
      min === undefined || min === null ? "<unset>" : `${min}`,
      hpa.spec?.maxReplicas ?? 0,
      hpa.status?.currentReplicas ?? 0,
      ageOf(hpa, now),
    ];
  },
);

interface PodDisruptionBudget extends KubeObject {
  spec?: { minAvailable?: Quantity | null; maxUnavailable?: Quantity | null };
  status?: { disruptionsAllowed?: number };
}

export const podDisruptionBudgetPrinter = definePrinter<PodDisruptionBudget>(
  [
    NAME_COLUMN,
    column("Min Available", "Pods that must stay available"),
    column("Max Unavailable", "Pods that may be unavailable"),
    column("Allowed Disruptions", "Pods that may be disrupted now", { type: "integer" }),
    AGE_COLUMN,
  ],
  (pdb, now) => [
    pdb.metadata.name,
    quantityText(pdb.spec?.minAvailable, "N/A"),
    quantityText(pdb.spec?.maxUnavailable, "N/A"),
    pdb.status?.disruptionsAllowed ?? 0,
    ageOf(pdb, now),
  ],
);

interface Scale extends KubeObject {
  spec?: { replicas?: number };
  status?: { replicas?: number };
}

/**
 * printScale, which the built-in workloads' ScaleREST.ConvertToTable reaches through their store's printers: the
 * Name column without kube's "name" format, the desired and current replicas, and the parent's age.
 */
export const scalePrinter = definePrinter<Scale>(
  [
    { ...NAME_COLUMN, format: "" },
    column("Desired", "Desired replicas", { type: "integer" }),
    column("Available", "Current replicas", { type: "integer" }),
    AGE_COLUMN,
  ],
  (scale, now) => [scale.metadata.name, scale.spec?.replicas ?? 0, scale.status?.replicas ?? 0, ageOf(scale, now)],
);
