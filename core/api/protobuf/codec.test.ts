// deno-lint-ignore-file no-explicit-any -- decoded JSON is read by path in assertions
import { expect, test } from "bun:test";
import { decodeProtobufObject, encodeProtobufObject, hasProtobufEncoding } from "./codec.ts";
import { isProtobufCodecError } from "./codec-errors.ts";
import { FIXTURES } from "./testing.ts";
import { CODEC_ONLY_POINTER_ZEROS, POINTER_ZERO_OBJECTS } from "./testdata/pointer-zeros.ts";

function roundTrip(object: Record<string, unknown>): Record<string, unknown> {
  const bytes = encodeProtobufObject(object, object.apiVersion as string, object.kind as string);
  return decodeProtobufObject(bytes).object;
}

for (const [name, fixture] of Object.entries(FIXTURES)) {
  test(`a ${name} survives JSON → protobuf → JSON unchanged`, () => {
    expect(roundTrip(fixture)).toEqual(fixture);
  });
}

test("a list encodes its items as the item kind's message and round-trips", () => {
  const list = {
    apiVersion: "v1",
    kind: "PodList",
    metadata: { resourceVersion: "77", continue: "token" },
    items: [FIXTURES.Pod, { ...FIXTURES.Pod, metadata: { name: "web-1", namespace: "default" } }].map((
      { apiVersion: _a, kind: _k, ...item },
    ) => item),
  };
  expect(roundTrip(list)).toEqual(list);
});

test("encoded objects start with the k8s\\0 magic followed by a runtime.Unknown naming the kind", () => {
  const bytes = encodeProtobufObject({ metadata: { name: "a" } }, "v1", "Namespace");
  expect([...bytes.subarray(0, 4)]).toEqual([0x6b, 0x38, 0x73, 0x00]);
  // Unknown field 1 (typeMeta) is a nested message holding apiVersion "v1" and kind "Namespace".
  expect(bytes[4]).toBe(0x0a);
  expect(new TextDecoder().decode(bytes.subarray(4, 26))).toContain("Namespace");
});

test("decoding leaves out zero scalars Go's JSON omits but keeps those it prints and meaningful pointer zeros", () => {
  const object = {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "d", generateName: "", generation: 0 },
    spec: {
      replicas: 0,
      minReadySeconds: 0,
      paused: false,
      template: { spec: { containers: [{ name: "c", ports: [{ containerPort: 0, hostPort: 0 }] }] } },
    },
  };
  const decoded = roundTrip(object) as any;
  expect(decoded.metadata).toEqual({ name: "d" });
  expect(decoded.spec.replicas).toBe(0);
  expect("minReadySeconds" in decoded.spec).toBe(false);
  expect("paused" in decoded.spec).toBe(false);
  expect(decoded.spec.template.spec.containers[0].ports).toEqual([{ containerPort: 0 }]);
});

test("batch/v1's pointer scalars keep an explicit zero through the codec (CronJobSpec.suspend, JobSpec.suspend, JobStatus.ready: *bool and *int32 in k8s.io/api)", () => {
  const jobSpec = { suspend: false, manualSelector: false, activeDeadlineSeconds: 0, template: {} };
  const cronJob = {
    apiVersion: "batch/v1",
    kind: "CronJob",
    metadata: { name: "c" },
    spec: { schedule: "* * * * *", suspend: false, startingDeadlineSeconds: 0, jobTemplate: { spec: jobSpec } },
  };
  const decoded = roundTrip(cronJob) as any;
  expect([decoded.spec.suspend, decoded.spec.startingDeadlineSeconds]).toEqual([false, 0]);
  expect(decoded.spec.jobTemplate.spec).toEqual({ suspend: false, manualSelector: false, activeDeadlineSeconds: 0, template: {} });
  const job = { apiVersion: "batch/v1", kind: "Job", metadata: { name: "j" }, spec: jobSpec, status: { ready: 0, active: 0 } };
  expect((roundTrip(job) as any).status).toEqual({ ready: 0 });
});

for (const object of [...POINTER_ZERO_OBJECTS, ...CODEC_ONLY_POINTER_ZEROS]) {
  test(`${object.apiVersion} ${object.kind} ${object.metadata.name} keeps its explicit pointer zeros through the codec (*bool, *int32, *int64, *string in k8s.io/api types.go)`, () => {
    expect(roundTrip(object)).toEqual(object);
  });
}

test("JSONSchemaProps.nullable is a plain bool with omitempty in apiextensions' types.go, so kube drops `nullable: false`", () => {
  const crd = CODEC_ONLY_POINTER_ZEROS.find((object) => object.kind === "CustomResourceDefinition")!;
  const spec = crd.spec as any;
  const size = { type: "integer", nullable: false };
  const withNullable = {
    ...crd,
    spec: { ...spec, versions: [{ ...spec.versions[0], schema: { openAPIV3Schema: { type: "object", properties: { size } } } }] },
  };
  expect((roundTrip(withNullable) as any).spec.versions[0].schema.openAPIV3Schema.properties.size).toEqual({ type: "integer" });
});

test("times decode as RFC 3339 seconds and micro times with six fraction digits", () => {
  const lease = roundTrip({
    apiVersion: "coordination.k8s.io/v1",
    kind: "Lease",
    metadata: { creationTimestamp: "2024-05-01T12:00:00+02:00" },
    spec: { renewTime: "2024-05-01T10:00:00.5Z" },
  }) as any;
  expect(lease.metadata.creationTimestamp).toBe("2024-05-01T10:00:00Z");
  expect(lease.spec.renewTime).toBe("2024-05-01T10:00:00.500000Z");
});

test("secret data decodes as base64 text of the original bytes", () => {
  const secret = roundTrip({ apiVersion: "v1", kind: "Secret", data: { k: Buffer.from("v\u0000\u00ff").toString("base64") } }) as any;
  expect(Buffer.from(secret.data.k, "base64")).toEqual(Buffer.from("v\u0000\u00ff"));
});

test("decoding a body of a kind without a protobuf encoding fails as UnknownKind", () => {
  const bytes = encodeProtobufObject({}, "v1", "Namespace");
  const forged = new Uint8Array(bytes);
  forged.set(new TextEncoder().encode("Nothingxx"), bytes.indexOf(0x4e));
  let error: unknown;
  try {
    decodeProtobufObject(forged);
  } catch (e) {
    error = e;
  }
  expect(isProtobufCodecError(error) && error.reason).toBe("UnknownKind");
  expect((error as Error).message).toBe('no kind "Nothingxx" is registered for version "v1"');
});

test("decoding bytes without the magic prefix or with a truncated message fails as Malformed", () => {
  const reasonOf = (bytes: Uint8Array) => {
    try {
      decodeProtobufObject(bytes);
    } catch (e) {
      return isProtobufCodecError(e) ? e.reason : "other";
    }
    return "none";
  };
  expect(reasonOf(new TextEncoder().encode('{"kind":"Pod"}'))).toBe("Malformed");
  const pod = encodeProtobufObject(FIXTURES.Pod, "v1", "Pod");
  expect(reasonOf(pod.subarray(0, pod.length - 40))).toBe("Malformed");
});

test("encoding a kind without a protobuf encoding fails as UnknownKind", () => {
  expect(hasProtobufEncoding("example.com/v1", "Widget")).toBe(false);
  expect(hasProtobufEncoding("apps/v1", "Deployment")).toBe(true);
  expect(() => encodeProtobufObject({}, "example.com/v1", "Widget")).toThrow('no kind "Widget" is registered for version "example.com/v1"');
});
