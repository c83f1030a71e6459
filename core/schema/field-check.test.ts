import { expect, test } from "bun:test";
import type { KubeObject } from "../api/types.ts";
import { isStatusError } from "../api/errors.ts";
import type { ResourceType } from "../api/resource-type.ts";
import { checkFields } from "./field-check.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const typeOf = (group: string, version: string, kind: string) => ({ group, version, kind }) as ResourceType;
const DEPLOYMENT = typeOf("apps", "v1", "Deployment");
const POD = typeOf("", "v1", "Pod");
const SECRET = typeOf("", "v1", "Secret");

function deployment(change: (d: Json) => void = () => {}): Json {
  const d: Json = {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "web", labels: { app: "web" } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: "web" } },
      strategy: { rollingUpdate: { maxSurge: "25%" } },
      template: {
        metadata: { labels: { app: "web" } },
        spec: { containers: [{ name: "c", image: "nginx", ports: [{ containerPort: 80 }], resources: { limits: { cpu: "500m" } } }] },
      },
    },
  };
  change(d);
  return d;
}

const container = (d: Json): Json => d.spec.template.spec.containers[0];

function errorOf(type: ResourceType, obj: Json): string {
  try {
    checkFields(type, obj as KubeObject);
  } catch (e) {
    if (isStatusError(e) && e.code === 400) return e.message;
    throw e;
  }
  throw new Error("expected a 400");
}

test("checkFields() leaves a well-typed object with only known fields as it is", () => {
  const obj = deployment();
  expect(checkFields(DEPLOYMENT, obj)).toEqual({ unknownFields: [] });
  expect(obj).toEqual(deployment());
});

test("checkFields() drops unknown fields and reports them by path, list indexes included", () => {
  const cases: [string, (d: Json) => void, string[]][] = [
    ["top level", (d) => (d.extra = 1), ["extra"]],
    ["spec", (d) => (d.spec.x = "y"), ["spec.x"]],
    ["metadata", (d) => (d.metadata.unknownMeta = "v"), ["metadata.unknownMeta"]],
    ["container", (d) => (container(d).bar = true), ["spec.template.spec.containers[0].bar"]],
    ["in document order", (d) => Object.assign(d.spec, { b: 1, a: 2 }), ["spec.b", "spec.a"]],
    ["unknown object as a whole", (d) => (d.spec.nested = { deep: { deeper: 1 } }), ["spec.nested"]],
  ];
  for (const [name, change, expected] of cases) {
    const obj = deployment(change);
    expect({ name, ...checkFields(DEPLOYMENT, obj) }).toEqual({ name, unknownFields: expected });
    expect({ name, obj }).toEqual({ name, obj: deployment() });
  }
});

test("checkFields() accepts any key in a map and anything inside raw JSON fields", () => {
  const obj = deployment((d) => {
    d.metadata.labels["example.com/any-key"] = "v";
    d.metadata.annotations = { "kubectl.kubernetes.io/last-applied-configuration": "{}" };
    d.metadata.managedFields = [{ manager: "m", fieldsType: "FieldsV1", fieldsV1: { "f:spec": { "f:whatever": {} } } }];
  });
  const expected = structuredClone(obj);
  expect(checkFields(DEPLOYMENT, obj)).toEqual({ unknownFields: [] });
  expect(obj).toEqual(expected);
});

test("checkFields() drops null and undefined fields and turns nulls inside lists and maps into Go's zero values", () => {
  const obj = deployment((d) => {
    d.spec.replicas = null;
    d.spec.paused = null;
    d.metadata.labels.empty = null;
    d.metadata.resourceVersion = undefined;
    container(d).args = ["a", null];
  });
  checkFields(DEPLOYMENT, obj);
  expect("replicas" in obj.spec || "paused" in obj.spec || "resourceVersion" in obj.metadata).toBe(false);
  expect(obj.metadata.labels.empty).toBe("");
  expect(container(obj).args).toEqual(["a", ""]);
});

test("checkFields() refuses wrong JSON types with kube's decoder message naming the Go struct, field path and type", () => {
  const prefix = 'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal';
  const cases: [(d: Json) => void, string][] = [
    [(d) => (d.spec.replicas = "x"), "string into Go struct field DeploymentSpec.spec.replicas of type int32"],
    [(d) => (d.spec.replicas = 1.5), "number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32"],
    [(d) => (d.spec.replicas = 2 ** 31), "number 2147483648 into Go struct field DeploymentSpec.spec.replicas of type int32"],
    [(d) => (d.spec.paused = "yes"), "string into Go struct field DeploymentSpec.spec.paused of type bool"],
    [(d) => (d.spec = []), "array into Go struct field Deployment.spec of type v1.DeploymentSpec"],
    [(d) => (d.metadata.name = 5), "number into Go struct field ObjectMeta.metadata.name of type string"],
    [(d) => (d.metadata.labels = "x"), "string into Go struct field ObjectMeta.metadata.labels of type map[string]string"],
    [(d) => (d.metadata.labels.app = true), "bool into Go struct field ObjectMeta.metadata.labels of type string"],
    [
      (d) => (d.spec.template.spec.containers = {}),
      "object into Go struct field PodSpec.spec.template.spec.containers of type []v1.Container",
    ],
    [
      (d) => (container(d).env = [{ name: "A", value: 1 }]),
      "number into Go struct field EnvVar.spec.template.spec.containers.env.value of type string",
    ],
    [
      (d) => (container(d).ports[0].containerPort = "80"),
      "string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32",
    ],
    [
      (d) => (d.spec.strategy.rollingUpdate.maxSurge = true),
      "bool into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxSurge of type int32",
    ],
    [
      (d) => (d.spec.strategy.rollingUpdate.maxSurge = 0.5),
      "number 0.5 into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxSurge of type int32",
    ],
    [(d) => (d.metadata.creationTimestamp = 5), "number into Go struct field ObjectMeta.metadata.creationTimestamp of type string"],
  ];
  for (const [change, message] of cases) expect(errorOf(DEPLOYMENT, deployment(change))).toBe(`${prefix} ${message}`);
});

test("checkFields() refuses malformed quantities, timestamps and base64 bytes with their decoders' messages", () => {
  const prefix = (kind: string) => `${kind} in version "v1" cannot be handled as a ${kind}: `;
  expect(errorOf(DEPLOYMENT, deployment((d) => (container(d).resources.limits.cpu = "lots"))))
    .toBe(`${prefix("Deployment")}quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`);
  expect(errorOf(DEPLOYMENT, deployment((d) => (d.metadata.creationTimestamp = "today"))))
    .toBe(`${prefix("Deployment")}parsing time "today" as "2006-01-02T15:04:05Z07:00": cannot parse "today" as "2006"`);
  const secret = { apiVersion: "v1", kind: "Secret", metadata: { name: "s" }, data: { ok: "YWJj", bad: "abc!" } };
  expect(errorOf(SECRET, secret)).toBe(`${prefix("Secret")}illegal base64 data at input byte 3`);
});

test("checkFields() accepts numbers for quantities and int-or-string fields, and strings for both", () => {
  const pod: Json = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "p" },
    spec: {
      containers: [{
        name: "c",
        resources: { requests: { cpu: 1, memory: "64Mi" } },
        livenessProbe: { httpGet: { port: "http" }, tcpSocket: { port: 8080 } },
      }],
    },
  };
  expect(checkFields(POD, pod)).toEqual({ unknownFields: [] });
});

test("checkFields() reports nothing for kinds without a built-in schema", () => {
  const obj = { apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "w" }, spec: { anything: 1 } };
  expect(checkFields(typeOf("example.com", "v1", "Widget"), obj as KubeObject)).toEqual({ unknownFields: [] });
  expect(obj.spec).toEqual({ anything: 1 });
});

test("checkFields() stores quantities in kube's canonical form, in structs, maps and lists", () => {
  const d = deployment((obj) => {
    container(obj).resources = { requests: { cpu: 0.5, memory: "1024Mi" }, limits: { cpu: "1.5", memory: "1.5Gi" } };
  });
  checkFields(DEPLOYMENT, d as KubeObject);
  expect(container(d).resources).toEqual({ requests: { cpu: "500m", memory: "1Gi" }, limits: { cpu: "1500m", memory: "1536Mi" } });
});

test("checkFields() stores metav1.Time in UTC whole seconds and MicroTime with six digits in UTC, as their MarshalJSON", () => {
  const event: Json = {
    apiVersion: "v1",
    kind: "Event",
    metadata: { name: "e" },
    involvedObject: { kind: "Pod", name: "p" },
    firstTimestamp: "2024-05-01T12:00:00.75+02:00",
    eventTime: "2024-05-01T05:00:00.123456-05:00",
    series: { count: 2, lastObservedTime: "2024-05-01T10:00:01.000001Z" },
  };
  checkFields(typeOf("", "v1", "Event"), event as KubeObject);
  expect([event.firstTimestamp, event.eventTime, event.series.lastObservedTime]).toEqual([
    "2024-05-01T10:00:00Z",
    "2024-05-01T10:00:00.123456Z",
    "2024-05-01T10:00:01.000001Z",
  ]);
  const pod: Json = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "p" },
    status: { conditions: [{ type: "Ready", status: "True", lastTransitionTime: "2024-05-01T10:00:00+01:00" }] },
  };
  checkFields(POD, pod as KubeObject);
  expect(pod.status.conditions[0].lastTransitionTime).toBe("2024-05-01T09:00:00Z");
});

test("checkFields() takes int64 values beyond 2^53 (BigInt) exactly and refuses them for int32 and past int64, as Go's decoder", () => {
  const job: Json = {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { name: "j" },
    spec: { activeDeadlineSeconds: 9223372036854775807n, template: {} },
  };
  checkFields(typeOf("batch", "v1", "Job"), job as KubeObject);
  expect(job.spec.activeDeadlineSeconds).toBe(9223372036854775807n);
  const prefix = (kind: string) => `${kind} in version "v1" cannot be handled as a ${kind}: `;
  expect(errorOf(DEPLOYMENT, deployment((d) => (d.spec.replicas = 9007199254740993n))))
    .toBe(
      `${
        prefix("Deployment")
      }json: cannot unmarshal number 9007199254740993 into Go struct field DeploymentSpec.spec.replicas of type int32`,
    );
  expect(errorOf(POD, { apiVersion: "v1", kind: "Pod", metadata: { name: "p" }, spec: { activeDeadlineSeconds: 9223372036854775808n } }))
    .toBe(
      `${
        prefix("Pod")
      }json: cannot unmarshal number 9223372036854775808 into Go struct field PodSpec.spec.activeDeadlineSeconds of type int64`,
    );
});
