/**
 * HorizontalPodAutoscaler between autoscaling/v1 and autoscaling/v2 (the stored form), as kube's
 * pkg/apis/autoscaling/v1/conversion.go does through its internal type: v1 carries targetCPUUtilizationPercentage,
 * and keeps every v2 field it has no place for in round-trip annotations, so nothing is lost either way.
 */
import { isPlainObject, type KubeObject } from "../../api/types.ts";
import { metricSpecFromV1, metricSpecToV1, metricStatusFromV1, metricStatusToV1 } from "./_hpa-metrics.ts";

type Fields = Record<string, unknown>;

/** kube's autoscaling.MetricSpecsAnnotation and friends (pkg/apis/autoscaling/annotations.go). */
export const METRIC_SPECS_ANNOTATION = "autoscaling.alpha.kubernetes.io/metrics";
export const METRIC_STATUSES_ANNOTATION = "autoscaling.alpha.kubernetes.io/current-metrics";
export const CONDITIONS_ANNOTATION = "autoscaling.alpha.kubernetes.io/conditions";
export const BEHAVIOR_ANNOTATION = "autoscaling.alpha.kubernetes.io/behavior";
const ROUND_TRIP_ANNOTATIONS = [METRIC_SPECS_ANNOTATION, METRIC_STATUSES_ANNOTATION, CONDITIONS_ANNOTATION, BEHAVIOR_ANNOTATION];

/** autoscaling.DefaultCPUUtilization: the target of a v1 autoscaler that names none. */
const DEFAULT_CPU_UTILIZATION = 80;

function fields(value: unknown): Fields {
  return isPlainObject(value) ? value as Fields : {};
}

function list(value: unknown): Fields[] {
  return Array.isArray(value) ? value.filter(isPlainObject) as Fields[] : [];
}

/** Drops undefined members, as the JSON the object becomes would. */
function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Annotations without the round-trip ones (kube's DropRoundTripHorizontalPodAutoscalerAnnotations). */
function withoutRoundTrip(annotations: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!annotations || !ROUND_TRIP_ANNOTATIONS.some((key) => key in annotations)) return annotations;
  return Object.fromEntries(Object.entries(annotations).filter(([key]) => !ROUND_TRIP_ANNOTATIONS.includes(key)));
}

/** The metadata with its annotations replaced in place (kube's field order), or dropped when there are none. */
function withAnnotations(metadata: KubeObject["metadata"], annotations: Record<string, string> | undefined): KubeObject["metadata"] {
  const present = annotations !== undefined && Object.keys(annotations).length > 0;
  const entries = Object.entries(metadata).filter(([key]) => key !== "annotations");
  if (!present) return Object.fromEntries(entries);
  const at = "annotations" in metadata
    ? Object.keys(metadata).indexOf("annotations")
    : entries.findIndex(([key]) => ["ownerReferences", "finalizers", "managedFields"].includes(key));
  entries.splice(at < 0 ? entries.length : at, 0, ["annotations", annotations]);
  return Object.fromEntries(entries);
}

function isCpuResource(metric: Fields): boolean {
  return metric.type === "Resource" && fields(metric.resource).name === "cpu";
}

/** An annotation's JSON list, or nothing when it is absent or not a list (kube ignores unreadable annotations). */
function annotationList(annotations: Record<string, string>, key: string): Fields[] | undefined {
  if (!(key in annotations)) return undefined;
  try {
    const parsed = JSON.parse(annotations[key]);
    return Array.isArray(parsed) ? list(parsed) : undefined;
  } catch {
    return undefined;
  }
}

/** Go's encoding/json matches field names case-insensitively; the behavior annotation uses Go's own names. */
function goField(source: Fields, name: string): unknown {
  const key = Object.keys(source).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : source[key];
}

/** The behavior annotation holds kube's internal type marshalled without JSON tags (Go field names, nulls kept). */
function behaviorToAnnotation(behavior: Fields): string {
  const rules = (value: unknown) => {
    if (!isPlainObject(value)) return null;
    const r = value as Fields;
    const policies = Array.isArray(r.policies)
      ? list(r.policies).map((p) => ({ Type: p.type ?? "", Value: p.value ?? 0, PeriodSeconds: p.periodSeconds ?? 0 }))
      : null;
    return { StabilizationWindowSeconds: r.stabilizationWindowSeconds ?? null, SelectPolicy: r.selectPolicy ?? null, Policies: policies };
  };
  return JSON.stringify({ ScaleUp: rules(behavior.scaleUp), ScaleDown: rules(behavior.scaleDown) });
}

function behaviorFromAnnotation(text: string): Fields | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isPlainObject(parsed)) return undefined;
  const rules = (value: unknown) => {
    if (!isPlainObject(value)) return undefined;
    const r = value as Fields;
    const policies = goField(r, "Policies");
    return {
      stabilizationWindowSeconds: goField(r, "StabilizationWindowSeconds") ?? undefined,
      selectPolicy: goField(r, "SelectPolicy") ?? undefined,
      policies: Array.isArray(policies)
        ? list(policies).map((p) => ({ type: goField(p, "Type"), value: goField(p, "Value"), periodSeconds: goField(p, "PeriodSeconds") }))
        : undefined,
    };
  };
  const scaleUp = rules(goField(parsed as Fields, "ScaleUp"));
  const scaleDown = rules(goField(parsed as Fields, "ScaleDown"));
  return scaleUp || scaleDown ? { scaleUp, scaleDown } : undefined;
}

/** A stored (v2) autoscaler as autoscaling/v1 answers it (Convert_autoscaling_HorizontalPodAutoscaler_To_v1_HorizontalPodAutoscaler). */
export function horizontalPodAutoscalerToV1(hpa: KubeObject): KubeObject {
  const spec = fields(hpa.spec), status = fields(hpa.status);
  const metrics = list(spec.metrics);
  const cpu = metrics.find(isCpuResource);
  const others = metrics.filter((m) => !(isCpuResource(m) && fields(fields(m.resource).target).averageUtilization !== undefined));
  const currentMetrics = list(status.currentMetrics);
  const conditions = list(status.conditions);
  const annotations: Record<string, string> = { ...withoutRoundTrip(hpa.metadata.annotations) };
  if (others.length > 0) annotations[METRIC_SPECS_ANNOTATION] = JSON.stringify(plain(others.map(metricSpecToV1)));
  if (currentMetrics.length > 0) annotations[METRIC_STATUSES_ANNOTATION] = JSON.stringify(plain(currentMetrics.map(metricStatusToV1)));
  if (conditions.length > 0) annotations[CONDITIONS_ANNOTATION] = JSON.stringify(conditions);
  if (isPlainObject(spec.behavior)) annotations[BEHAVIOR_ANNOTATION] = behaviorToAnnotation(spec.behavior as Fields);
  // The last CPU utilization among the current metrics wins, as kube's loop leaves it.
  const cpuNow = currentMetrics.filter(isCpuResource).map((m) => fields(fields(m.resource).current).averageUtilization).filter((u) =>
    u !== undefined
  ).at(-1);
  return plain({
    apiVersion: "autoscaling/v1",
    kind: "HorizontalPodAutoscaler",
    metadata: withAnnotations(hpa.metadata, annotations),
    spec: {
      scaleTargetRef: spec.scaleTargetRef,
      minReplicas: spec.minReplicas,
      maxReplicas: spec.maxReplicas ?? 0,
      targetCPUUtilizationPercentage: cpu ? fields(fields(cpu.resource).target).averageUtilization : undefined,
    },
    status: {
      observedGeneration: status.observedGeneration,
      lastScaleTime: status.lastScaleTime,
      currentReplicas: status.currentReplicas ?? 0,
      desiredReplicas: status.desiredReplicas ?? 0,
      currentCPUUtilizationPercentage: cpuNow,
    },
  });
}

/** An autoscaling/v1 autoscaler as stored (v2) (Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler). */
export function horizontalPodAutoscalerFromV1(hpa: KubeObject): KubeObject {
  const spec = fields(hpa.spec);
  const annotations = hpa.metadata.annotations ?? {};
  const cpu = spec.targetCPUUtilizationPercentage;
  const cpuMetric = (utilization: unknown) => ({
    type: "Resource",
    resource: { name: "cpu", target: { type: "Utilization", averageUtilization: utilization } },
  });
  let metrics: Fields[] = cpu === undefined || cpu === null ? [] : [cpuMetric(cpu)];
  const others = annotationList(annotations, METRIC_SPECS_ANNOTATION);
  if (others) metrics = [...others.map(metricSpecFromV1), ...metrics];
  // v1 used to leave the CPU default to the controller; kube makes it explicit here.
  if (metrics.length === 0) metrics = [cpuMetric(DEFAULT_CPU_UTILIZATION)];
  const behavior = BEHAVIOR_ANNOTATION in annotations ? behaviorFromAnnotation(annotations[BEHAVIOR_ANNOTATION]) : undefined;
  return plain({
    apiVersion: "autoscaling/v2",
    kind: "HorizontalPodAutoscaler",
    metadata: withAnnotations(hpa.metadata, withoutRoundTrip(hpa.metadata.annotations)),
    spec: { scaleTargetRef: spec.scaleTargetRef, minReplicas: spec.minReplicas, maxReplicas: spec.maxReplicas, metrics, behavior },
    ...(hpa.status === undefined ? {} : { status: statusFromV1(fields(hpa.status), annotations) }),
  });
}

function statusFromV1(status: Fields, annotations: Record<string, string>): Fields {
  const cpuNow = status.currentCPUUtilizationPercentage;
  const annotated = annotationList(annotations, METRIC_STATUSES_ANNOTATION);
  const currentMetrics = annotated
    ? annotated.map(metricStatusFromV1)
    : cpuNow === undefined || cpuNow === null
    ? undefined
    : [{ type: "Resource", resource: { name: "cpu", current: { averageUtilization: cpuNow } } }];
  return {
    observedGeneration: status.observedGeneration,
    lastScaleTime: status.lastScaleTime,
    // v2's currentReplicas is omitempty: Go leaves a zero out.
    currentReplicas: status.currentReplicas === 0 ? undefined : status.currentReplicas,
    desiredReplicas: status.desiredReplicas,
    currentMetrics,
    conditions: annotationList(annotations, CONDITIONS_ANNOTATION),
  };
}

/** v2 carries no round-trip annotations in either direction (kube's v2 conversion drops them). */
export function horizontalPodAutoscalerV2(hpa: KubeObject): KubeObject {
  const kept = withoutRoundTrip(hpa.metadata.annotations);
  if (kept === hpa.metadata.annotations) return hpa;
  return { ...hpa, metadata: withAnnotations(hpa.metadata, kept) };
}
