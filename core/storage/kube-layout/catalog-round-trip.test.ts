/** Every stored built-in kind of the catalog, filled in from its schema, reads back as kubun stored it through kube's encoding. */
import { describe, expect, test } from "bun:test";
import { builtInSchemas } from "../../schema/lookup.ts";
import { builtInCatalog } from "../../registry/catalog.ts";
import { versionConversionFor } from "../../registry/conversion/mod.ts";
import { objectKey } from "../../registry/keys.ts";
import { sampleObject } from "../../registry/schema-samples.ts";
import type { KubeObject } from "../../api/types.ts";
import { kubeValueCodec } from "./mod.ts";

const codecs = {
  protobuf: kubeValueCodec("application/vnd.kubernetes.protobuf", versionConversionFor),
  json: kubeValueCodec("application/json", versionConversionFor),
};

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]));
}

function expectRoundTrip(key: string, stored: KubeObject): void {
  for (const codec of Object.values(codecs)) {
    const read = JSON.parse(codec.decode(key, codec.encode(key, JSON.stringify(stored))));
    expect(sortedKeys(read)).toEqual(sortedKeys(stored));
  }
}

/**
 * Schema samples fill a metric target with a value of every kind and an invalid type, which validation refuses and
 * kube's autoscaling/v1 conversion (MetricSpecsAnnotation) keeps only by type; valid autoscalers are tested below.
 */
const SAMPLE_INVALID_FOR_STORAGE_CONVERSION = new Set(["autoscaling/horizontalpodautoscalers"]);

describe("a filled-in object of every stored kind survives kubun JSON → kube's storage bytes → kubun JSON", () => {
  const stored = builtInCatalog().all().filter((type) => type.storageVersionHash !== undefined);
  for (const type of stored.filter((type) => !SAMPLE_INVALID_FOR_STORAGE_CONVERSION.has(`${type.group}/${type.resource}`))) {
    test(`${type.group || "core"}/${type.version}/${type.resource}`, () => {
      const sample = sampleObject(builtInSchemas, type) as KubeObject | undefined;
      expect(sample).toBeDefined();
      const { resourceVersion: _version, selfLink: _selfLink, ...metadata } = sample!.metadata;
      const served = { ...sample!, metadata: { ...metadata, name: "sample", namespace: type.namespaced ? "ns" : undefined } };
      // What kubun's registry stores for this served version (store.ts #encode).
      const stored = JSON.parse(JSON.stringify(versionConversionFor(type)?.toStored(served) ?? served));
      expectRoundTrip(objectKey(type, "ns", "sample"), stored);
    });
  }
});

test("a valid autoscaling/v2 HorizontalPodAutoscaler reads back as kube's autoscaling/v1 conversion gives it (Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler)", () => {
  const target = (type: string, value: Record<string, unknown>) => ({ type, ...value });
  const hpa = {
    apiVersion: "autoscaling/v2",
    kind: "HorizontalPodAutoscaler",
    metadata: { name: "web", namespace: "ns", uid: "u-1", creationTimestamp: "2024-05-01T10:00:00Z", annotations: { team: "a" } },
    spec: {
      scaleTargetRef: { kind: "Deployment", name: "web", apiVersion: "apps/v1" },
      minReplicas: 2,
      maxReplicas: 10,
      metrics: [
        { type: "Resource", resource: { name: "cpu", target: target("Utilization", { averageUtilization: 60 }) } },
        { type: "Resource", resource: { name: "memory", target: target("AverageValue", { averageValue: "500Mi" }) } },
        { type: "Pods", pods: { metric: { name: "rps" }, target: target("AverageValue", { averageValue: "100" }) } },
        {
          type: "Object",
          object: {
            describedObject: { kind: "Ingress", name: "main", apiVersion: "networking.k8s.io/v1" },
            metric: { name: "hits" },
            target: target("Value", { value: "2k" }),
          },
        },
        {
          type: "External",
          external: { metric: { name: "queue", selector: { matchLabels: { q: "jobs" } } }, target: target("Value", { value: "30" }) },
        },
        {
          type: "ContainerResource",
          containerResource: { name: "cpu", container: "app", target: target("Utilization", { averageUtilization: 70 }) },
        },
      ],
      behavior: {
        scaleDown: { stabilizationWindowSeconds: 300, selectPolicy: "Max", policies: [{ type: "Percent", value: 100, periodSeconds: 15 }] },
      },
    },
    status: {
      currentReplicas: 3,
      desiredReplicas: 4,
      currentMetrics: [{ type: "Resource", resource: { name: "cpu", current: { averageUtilization: 55 } } }],
    },
  };
  const v1 = versionConversionFor({ group: "autoscaling", version: "v1", resource: "horizontalpodautoscalers" })!;
  const throughV1 = JSON.parse(JSON.stringify(v1.toStored(v1.fromStored(hpa as unknown as KubeObject))));
  expectRoundTrip("/autoscaling/horizontalpodautoscalers/ns/web", throughV1);
  const key = "/autoscaling/horizontalpodautoscalers/ns/web";
  const read = JSON.parse(codecs.protobuf.decode(key, codecs.protobuf.encode(key, JSON.stringify(hpa))));
  expect(sortedKeys(read)).toEqual(sortedKeys(throughV1));
  // As in kube: v1 keeps the CPU utilization target in targetCPUUtilizationPercentage and the rest in an annotation,
  // and converting back puts the annotation's metrics first.
  expect(read.spec.metrics.map((metric: { type: string }) => metric.type)).toEqual([
    "Resource",
    "Pods",
    "Object",
    "External",
    "ContainerResource",
    "Resource",
  ]);
  expect(read.metadata.annotations).toEqual({ team: "a" });
});
