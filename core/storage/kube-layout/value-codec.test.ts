import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { versionConversionFor } from "../../registry/conversion/mod.ts";
import { encodeProtobufObject } from "../../api/protobuf/mod.ts";
import { kubeValueCodec } from "./mod.ts";
import { FIXTURES } from "./testdata/fixtures.ts";

const TESTDATA = join(import.meta.dir, "testdata");
const protobufCodec = kubeValueCodec("application/vnd.kubernetes.protobuf", versionConversionFor);
const jsonCodec = kubeValueCodec("application/json", versionConversionFor);
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** JSON text with every object's keys sorted, to compare objects whatever their member order. */
function normalized(jsonText: string): string {
  const sort = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sort);
    if (value === null || typeof value !== "object") return value;
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sort((value as Record<string, unknown>)[key])]));
  };
  return JSON.stringify(sort(JSON.parse(jsonText)));
}

describe("protobuf values are kube's envelope k8s\\0 + runtime.Unknown over the kind's generated.proto message (protobuf Serializer.doEncode)", () => {
  for (const fixture of FIXTURES.filter((fixture) => fixture.protobuf)) {
    test(fixture.name, () => {
      const written = protobufCodec.encode(fixture.key, JSON.stringify(fixture.kubun));
      expect(Buffer.from(written).toString("hex")).toBe(Buffer.from(fixture.protobuf!).toString("hex"));
      expect(Buffer.from(written).equals(readFileSync(join(TESTDATA, `${fixture.name}.pb`)))).toBe(true);
    });
  }
});

describe("stored values read back as kubun's JSON, whichever encoding kube used (round trip)", () => {
  for (const fixture of FIXTURES) {
    test(fixture.name, () => {
      const stored = JSON.stringify(fixture.kubun);
      for (const written of [protobufCodec.encode(fixture.key, stored), jsonCodec.encode(fixture.key, stored)]) {
        const read = protobufCodec.decode(fixture.key, written);
        expect(normalized(read)).toBe(normalized(stored));
        expect(jsonCodec.decode(fixture.key, written)).toBe(read);
        // kubun's stored head: apiVersion, kind, metadata lead (registry/codec.ts storedTextWithVersion and storedListItemText rely on it).
        expect(read.startsWith(`{"apiVersion":${JSON.stringify(fixture.kubun.apiVersion)},"kind":`)).toBe(true);
      }
    });
  }
});

test("JSON values are json.Serializer.Encode's: compact, TypeMeta first, Go's HTML escapes, a trailing newline", () => {
  const fixture = FIXTURES.find((fixture) => fixture.name === "configmap")!;
  const expected = readFileSync(join(TESTDATA, "configmap.json"), "utf8");
  expect(text(jsonCodec.encode(fixture.key, JSON.stringify(fixture.kubun)))).toBe(expected);
});

test("CRDs are stored as apiextensions.k8s.io/v1beta1 JSON whatever the media type (the apiextensions server's LegacyCodec and EncodeVersioner)", () => {
  const fixture = FIXTURES.find((fixture) => fixture.name === "crd")!;
  const expected = readFileSync(join(TESTDATA, "crd.json"), "utf8");
  expect(text(protobufCodec.encode(fixture.key, JSON.stringify(fixture.kubun)))).toBe(expected);
  expect(text(jsonCodec.encode(fixture.key, JSON.stringify(fixture.kubun)))).toBe(expected);
});

test("custom resources are stored as JSON with sorted keys whatever the media type (unstructured maps under encoding/json)", () => {
  const fixture = FIXTURES.find((fixture) => fixture.name === "custom-resource")!;
  const expected = readFileSync(join(TESTDATA, "custom-resource.json"), "utf8");
  expect(text(protobufCodec.encode(fixture.key, JSON.stringify(fixture.kubun)))).toBe(expected);
});

test("resourceVersion and selfLink are not stored (etcd3 APIObjectVersioner.PrepareObjectForStorage)", () => {
  const fixture = FIXTURES.find((fixture) => fixture.name === "configmap")!;
  const withVersion = { ...fixture.kubun, metadata: { ...(fixture.kubun.metadata as object), resourceVersion: "42", selfLink: "/x" } };
  expect(Buffer.from(protobufCodec.encode(fixture.key, JSON.stringify(withVersion))).equals(Buffer.from(fixture.protobuf!))).toBe(true);
  expect(protobufCodec.decode(fixture.key, fixture.protobuf!)).not.toContain("resourceVersion");
});

test("HorizontalPodAutoscalers are stored as autoscaling/v1, kube 1.26's storage version, and read back as kubun's v2", () => {
  const key = "/autoscaling/horizontalpodautoscalers/default/web";
  const v2 = {
    apiVersion: "autoscaling/v2",
    kind: "HorizontalPodAutoscaler",
    metadata: { name: "web", namespace: "default", uid: "u-1", creationTimestamp: "2024-05-01T10:00:00Z" },
    spec: {
      scaleTargetRef: { kind: "Deployment", name: "web", apiVersion: "apps/v1" },
      minReplicas: 1,
      maxReplicas: 5,
      metrics: [{ type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 70 } } }],
    },
    status: { desiredReplicas: 0 },
  };
  const stored = JSON.parse(text(jsonCodec.encode(key, JSON.stringify(v2))));
  expect(stored.apiVersion).toBe("autoscaling/v1");
  expect(stored.spec).toEqual({
    scaleTargetRef: v2.spec.scaleTargetRef,
    minReplicas: 1,
    maxReplicas: 5,
    targetCPUUtilizationPercentage: 70,
  });
  const written = protobufCodec.encode(key, JSON.stringify(v2));
  expect(text(written.subarray(0, 40))).toContain("autoscaling/v1");
  expect(normalized(protobufCodec.decode(key, written))).toBe(normalized(JSON.stringify(v2)));
});

test("a CRD kube wrote in v1beta1 with its spec-level fields and defaults reads as v1 (SetDefaults_CustomResourceDefinitionSpec)", () => {
  const key = "/apiextensions.k8s.io/customresourcedefinitions/widgets.example.com";
  const written = {
    kind: "CustomResourceDefinition",
    apiVersion: "apiextensions.k8s.io/v1beta1",
    metadata: { name: "widgets.example.com", uid: "u-2" },
    spec: {
      group: "example.com",
      version: "v1",
      names: { plural: "widgets", kind: "Widget" },
      scope: "Cluster",
      validation: { openAPIV3Schema: { type: "object" } },
      additionalPrinterColumns: [{ name: "Age", type: "date", JSONPath: ".metadata.creationTimestamp" }],
    },
  };
  const read = JSON.parse(protobufCodec.decode(key, new TextEncoder().encode(`${JSON.stringify(written)}\n`)));
  expect(read.apiVersion).toBe("apiextensions.k8s.io/v1");
  expect(read.spec).toEqual({
    group: "example.com",
    names: { plural: "widgets", kind: "Widget" },
    scope: "Cluster",
    versions: [{
      name: "v1",
      served: true,
      storage: true,
      schema: { openAPIV3Schema: { type: "object" } },
      additionalPrinterColumns: [{ name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" }],
    }],
    preserveUnknownFields: true,
  });
});

test("versions with different schemas keep them per version in v1beta1 (Convert_v1_CustomResourceDefinitionSpec lifts only identical ones)", () => {
  const key = "/apiextensions.k8s.io/customresourcedefinitions/gadgets.example.com";
  const schema = (type: string) => ({ openAPIV3Schema: { type: "object", properties: { size: { type } } } });
  const v1 = {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "gadgets.example.com" },
    spec: {
      group: "example.com",
      names: { plural: "gadgets", kind: "Gadget" },
      scope: "Namespaced",
      versions: [
        { name: "v2", served: true, storage: true, schema: schema("integer"), subresources: { status: {} } },
        { name: "v1", served: true, storage: false, schema: schema("string"), subresources: { status: {} } },
      ],
      conversion: {
        strategy: "Webhook",
        webhook: { clientConfig: { url: "https://conv.example.com/" }, conversionReviewVersions: ["v1"] },
      },
    },
  };
  const stored = JSON.parse(text(protobufCodec.encode(key, JSON.stringify(v1))));
  expect(stored.spec.version).toBe("v2");
  expect(stored.spec.validation).toBeUndefined();
  expect(stored.spec.subresources).toEqual({ status: {} });
  expect(stored.spec.versions.map((version: { schema?: unknown }) => version.schema)).toEqual([schema("integer"), schema("string")]);
  expect(stored.spec.conversion).toEqual({
    strategy: "Webhook",
    webhookClientConfig: { url: "https://conv.example.com/" },
    conversionReviewVersions: ["v1"],
  });
  expect(normalized(protobufCodec.decode(key, new TextEncoder().encode(JSON.stringify(stored))))).toBe(normalized(JSON.stringify(v1)));
});

test("bytes that are not an object with metadata are refused", () => {
  const key = "/core/configmaps/default/x";
  for (const bad of ["[]", "null", "{}", "not json"]) {
    expect(() => protobufCodec.decode(key, new TextEncoder().encode(bad))).toThrow();
  }
  expect(() => protobufCodec.decode(key, new Uint8Array([0x6b, 0x38, 0x73, 0x00, 0xff, 0xff]))).toThrow();
});

test("an object in a version kube does not store it in is refused rather than written where kube would misread it", () => {
  const key = "/core/configmaps/default/x";
  expect(() => protobufCodec.encode(key, JSON.stringify({ apiVersion: "v2", kind: "ConfigMap", metadata: { name: "x" } }))).toThrow(
    "stored by kube as v1/ConfigMap",
  );
});

test("kubun's reservation keys keep their value text", () => {
  const value = JSON.stringify({ namespace: "default", name: "web", uid: "u", reservedAt: 1 });
  const key = "/_allocations/clusterips/10.96.0.10";
  expect(text(protobufCodec.encode(key, value))).toBe(value);
  expect(protobufCodec.decode(key, new TextEncoder().encode(value))).toBe(value);
});

test("a stored object in another version reads through kubun's conversion for it, and one kubun cannot convert is refused", () => {
  const hpaKey = "/autoscaling/horizontalpodautoscalers/default/web";
  const v2 = {
    apiVersion: "autoscaling/v2",
    kind: "HorizontalPodAutoscaler",
    metadata: { name: "web", namespace: "default" },
    spec: { scaleTargetRef: { kind: "Deployment", name: "web" }, maxReplicas: 3 },
    status: { desiredReplicas: 0 },
  };
  const read = protobufCodec.decode(hpaKey, new TextEncoder().encode(JSON.stringify(v2)));
  // Through the typed conversion the read gains Go's zero values (metadata.creationTimestamp: null).
  expect(normalized(read)).toBe(normalized(JSON.stringify({ ...v2, metadata: { ...v2.metadata, creationTimestamp: null } })));
  const crdKey = "/apiextensions.k8s.io/customresourcedefinitions/crontabs.stable.example.com";
  const crd = FIXTURES.find((fixture) => fixture.name === "crd")!.kubun;
  expect(normalized(protobufCodec.decode(crdKey, new TextEncoder().encode(JSON.stringify(crd))))).toBe(normalized(JSON.stringify(crd)));
  const beta = { apiVersion: "networking.k8s.io/v1beta1", kind: "Ingress", metadata: { name: "old", namespace: "default" } };
  expect(() => protobufCodec.decode("/networking.k8s.io/ingresses/default/old", new TextEncoder().encode(JSON.stringify(beta)))).toThrow(
    "a version kubun cannot convert",
  );
});

/** Request bodies kubectl 1.32 (Go, k8s.io/api's generated Marshal) POSTs for `kubectl create ...`, and its client-side JSON of them. */
const CAPTURED = [
  { name: "configmap", key: "/core/configmaps/default/settings" },
  { name: "deployment", key: "/apps/deployments/default/web" },
  { name: "service", key: "/core/services/default/web" },
  { name: "priorityclass", key: "/scheduling.k8s.io/priorityclasses/high" },
];

describe("protobuf written by Go's generated Marshal (captured from kubectl) reads as Go's JSON of the same object", () => {
  for (const { name, key } of CAPTURED) {
    test(name, () => {
      const goBytes = readFileSync(join(TESTDATA, `kubectl-${name}.pb`));
      const goJson = JSON.parse(readFileSync(join(TESTDATA, `kubectl-${name}.dry-run.json`), "utf8"));
      const read = protobufCodec.decode(key, goBytes);
      expect(normalized(read)).toBe(normalized(JSON.stringify(goJson)));
      // Go's marshaller also writes zero-valued non-pointer fields (`12 00`: an empty generateName), which kubun
      // leaves out: the bytes differ, the object read back does not.
      const rewritten = protobufCodec.encode(key, read);
      expect(rewritten.length).toBeLessThan(goBytes.length);
      expect(protobufCodec.decode(key, rewritten)).toBe(read);
      // These kinds' fields come out of protobuf in Go's struct order, so the JSON value is Go's byte for byte.
      expect(text(jsonCodec.encode(key, read))).toBe(`${JSON.stringify(goJson)}\n`);
    });
  }
});

test("JSON values put members in Go's struct declaration order and map keys in order, whatever kubun's order (encoding/json on the typed object)", () => {
  const key = "/core/pods/default/web";
  const pod = {
    status: { phase: "Running" },
    spec: {
      containers: [{ image: "nginx", name: "web" }],
      volumes: [{ configMap: { name: "cfg", defaultMode: 420 }, name: "cfg" }],
      initContainers: [{ name: "init", image: "busybox" }],
      nodeSelector: { zone: "b", arch: "amd64" },
    },
    metadata: { labels: { tier: "web", app: "shop" }, namespace: "default", name: "web" },
    kind: "Pod",
    apiVersion: "v1",
  };
  // PodSpec declares volumes (1), initContainers (20), containers (2), then nodeSelector (7); Volume's VolumeSource is
  // inline after its name, and ConfigMapVolumeSource's LocalObjectReference (name) is inline before defaultMode.
  expect(text(jsonCodec.encode(key, JSON.stringify(pod)))).toBe(
    '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"web","namespace":"default","labels":{"app":"shop","tier":"web"}},' +
      '"spec":{"volumes":[{"name":"cfg","configMap":{"name":"cfg","defaultMode":420}}],"initContainers":[{"name":"init","image":"busybox"}],' +
      '"containers":[{"name":"web","image":"nginx"}],"nodeSelector":{"arch":"amd64","zone":"b"}},"status":{"phase":"Running"}}\n',
  );
});

test("an older kubun's events.k8s.io/v1 Event under its own etcd prefix reads back from protobuf, for the start's move to core Events", () => {
  const event = {
    apiVersion: "events.k8s.io/v1",
    kind: "Event",
    metadata: { name: "ev", namespace: "ns", uid: "u-1" },
    eventTime: "2026-01-01T00:00:00.000000Z",
    reportingController: "example.com/ctl",
    note: "kept apart",
    type: "Normal",
  };
  const written = encodeProtobufObject(event, "events.k8s.io/v1", "Event");
  expect(JSON.parse(protobufCodec.decode("/events.k8s.io/events/ns/ev", written))).toMatchObject({
    apiVersion: "events.k8s.io/v1",
    metadata: { uid: "u-1" },
    note: "kept apart",
    reportingController: "example.com/ctl",
  });
});
