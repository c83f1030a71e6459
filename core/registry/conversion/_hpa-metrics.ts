/**
 * HorizontalPodAutoscaler metric specs and statuses between autoscaling/v2 and the older shape autoscaling/v1 keeps in
 * its round-trip annotations (kube's pkg/apis/autoscaling/v1/conversion.go: Convert_autoscaling_*MetricSource_To_v1_*
 * and back). v1's required quantities are "0" where v2 has none, as Go marshals a zero resource.Quantity.
 */
import { isPlainObject } from "../../api/types.ts";

type Fields = Record<string, unknown>;

const ZERO_QUANTITY = "0";

function fields(value: unknown): Fields {
  return isPlainObject(value) ? value as Fields : {};
}

/** The value-or-average target kind v1 implies (kube picks Value when a value is given, AverageValue otherwise). */
function valueTarget(value: unknown, averageValue: unknown): Fields {
  return { type: value === undefined ? "AverageValue" : "Value", value, averageValue };
}

function resourceTargetFromV1(source: Fields): Fields {
  const utilization = source.targetAverageUtilization;
  return {
    type: utilization === undefined ? "AverageValue" : "Utilization",
    averageValue: source.targetAverageValue,
    averageUtilization: utilization,
  };
}

/** One v2 MetricSpec as v1's annotation spells it (Convert_autoscaling_MetricSpec_To_v1_MetricSpec). */
export function metricSpecToV1(metric: Fields): Fields {
  const out: Fields = { type: metric.type };
  const object = fields(metric.object), pods = fields(metric.pods), resource = fields(metric.resource);
  const container = fields(metric.containerResource), external = fields(metric.external);
  if (metric.object !== undefined) {
    const target = fields(object.target), id = fields(object.metric);
    out.object = {
      target: object.describedObject,
      metricName: id.name,
      targetValue: target.value ?? ZERO_QUANTITY,
      selector: id.selector,
      averageValue: target.averageValue,
    };
  }
  if (metric.pods !== undefined) {
    const target = fields(pods.target), id = fields(pods.metric);
    out.pods = { metricName: id.name, targetAverageValue: target.averageValue ?? ZERO_QUANTITY, selector: id.selector };
  }
  if (metric.resource !== undefined) {
    const target = fields(resource.target);
    out.resource = { name: resource.name, targetAverageUtilization: target.averageUtilization, targetAverageValue: target.averageValue };
  }
  if (metric.containerResource !== undefined) {
    const target = fields(container.target);
    out.containerResource = {
      name: container.name,
      targetAverageUtilization: target.averageUtilization,
      targetAverageValue: target.averageValue,
      container: container.container,
    };
  }
  if (metric.external !== undefined) {
    const target = fields(external.target), id = fields(external.metric);
    out.external = { metricName: id.name, metricSelector: id.selector, targetValue: target.value, targetAverageValue: target.averageValue };
  }
  return out;
}

/** One v1-annotation MetricSpec as v2 (Convert_v1_MetricSpec_To_autoscaling_MetricSpec). */
export function metricSpecFromV1(metric: Fields): Fields {
  const out: Fields = { type: metric.type };
  const object = fields(metric.object), pods = fields(metric.pods), resource = fields(metric.resource);
  const container = fields(metric.containerResource), external = fields(metric.external);
  if (metric.object !== undefined) {
    out.object = {
      describedObject: object.target,
      metric: { name: object.metricName, selector: object.selector },
      target: {
        type: object.averageValue === undefined ? "Value" : "AverageValue",
        value: object.targetValue ?? ZERO_QUANTITY,
        averageValue: object.averageValue,
      },
    };
  }
  if (metric.pods !== undefined) {
    out.pods = {
      metric: { name: pods.metricName, selector: pods.selector },
      target: { type: "AverageValue", averageValue: pods.targetAverageValue ?? ZERO_QUANTITY },
    };
  }
  if (metric.resource !== undefined) out.resource = { name: resource.name, target: resourceTargetFromV1(resource) };
  if (metric.containerResource !== undefined) {
    out.containerResource = { name: container.name, container: container.container, target: resourceTargetFromV1(container) };
  }
  if (metric.external !== undefined) {
    out.external = {
      metric: { name: external.metricName, selector: external.metricSelector },
      target: valueTarget(external.targetValue, external.targetAverageValue),
    };
  }
  return out;
}

/** One v2 MetricStatus as v1's annotation spells it (Convert_autoscaling_MetricStatus_To_v1_MetricStatus). */
export function metricStatusToV1(metric: Fields): Fields {
  const out: Fields = { type: metric.type };
  const object = fields(metric.object), pods = fields(metric.pods), resource = fields(metric.resource);
  const container = fields(metric.containerResource), external = fields(metric.external);
  if (metric.object !== undefined) {
    const current = fields(object.current), id = fields(object.metric);
    out.object = {
      target: object.describedObject,
      metricName: id.name,
      currentValue: current.value ?? ZERO_QUANTITY,
      selector: id.selector,
      averageValue: current.averageValue,
    };
  }
  if (metric.pods !== undefined) {
    const current = fields(pods.current), id = fields(pods.metric);
    out.pods = { metricName: id.name, currentAverageValue: current.averageValue ?? ZERO_QUANTITY, selector: id.selector };
  }
  if (metric.resource !== undefined) {
    const current = fields(resource.current);
    out.resource = {
      name: resource.name,
      currentAverageUtilization: current.averageUtilization,
      currentAverageValue: current.averageValue ?? ZERO_QUANTITY,
    };
  }
  if (metric.containerResource !== undefined) {
    const current = fields(container.current);
    out.containerResource = {
      name: container.name,
      currentAverageUtilization: current.averageUtilization,
      currentAverageValue: current.averageValue ?? ZERO_QUANTITY,
      container: container.container,
    };
  }
  if (metric.external !== undefined) {
    const current = fields(external.current), id = fields(external.metric);
    out.external = {
      metricName: id.name,
      metricSelector: id.selector,
      currentValue: current.value ?? ZERO_QUANTITY,
      currentAverageValue: current.averageValue,
    };
  }
  return out;
}

/** One v1-annotation MetricStatus as v2 (Convert_v1_MetricStatus_To_autoscaling_MetricStatus). */
export function metricStatusFromV1(metric: Fields): Fields {
  const out: Fields = { type: metric.type };
  const object = fields(metric.object), pods = fields(metric.pods), resource = fields(metric.resource);
  const container = fields(metric.containerResource), external = fields(metric.external);
  if (metric.object !== undefined) {
    out.object = {
      describedObject: object.target,
      metric: { name: object.metricName, selector: object.selector },
      current: { value: object.currentValue ?? ZERO_QUANTITY, averageValue: object.averageValue },
    };
  }
  if (metric.pods !== undefined) {
    out.pods = {
      metric: { name: pods.metricName, selector: pods.selector },
      current: { averageValue: pods.currentAverageValue ?? ZERO_QUANTITY },
    };
  }
  if (metric.resource !== undefined) {
    out.resource = {
      name: resource.name,
      current: { averageValue: resource.currentAverageValue ?? ZERO_QUANTITY, averageUtilization: resource.currentAverageUtilization },
    };
  }
  if (metric.containerResource !== undefined) {
    out.containerResource = {
      name: container.name,
      container: container.container,
      current: { averageValue: container.currentAverageValue ?? ZERO_QUANTITY, averageUtilization: container.currentAverageUtilization },
    };
  }
  if (metric.external !== undefined) {
    out.external = {
      metric: { name: external.metricName, selector: external.metricSelector },
      current: { value: external.currentValue ?? ZERO_QUANTITY, averageValue: external.currentAverageValue },
    };
  }
  return out;
}
