/**
 * Objects as kubun's registry stores them (apiVersion, kind and metadata first, no resourceVersion) and, for the
 * protobuf-stored ones, the bytes kube's storage encoding gives them, written field by field from the field numbers
 * in kube 1.26's generated.proto (k8s.io/api, k8s.io/apimachinery) with wire.ts. See README.md in this folder.
 */
import { bytes, entry, envelope, type Field, msg, str, stringEntry, time, varint } from "./wire.ts";

const UID = "6f1b3c2e-8f0a-4d7b-9a51-0c2d3e4f5a6b";
const POD_UID = "0c0ffee0-1111-4222-8333-944445555666";
const TS = "2024-05-01T10:00:00Z";

export interface Fixture {
  name: string;
  /** kubun's storage key. */
  key: string;
  /** kubun's stored object. */
  kubun: Record<string, unknown>;
  /** kube's protobuf value, for kinds kube stores in protobuf. */
  protobuf?: Uint8Array;
}

/** ObjectMeta (meta/v1): name 1, namespace 3, uid 5, generation 7, creationTimestamp 8, labels 11, annotations 12. */
function objectMeta(name: string, namespace: string | undefined, ...rest: Field[]): Field {
  return msg(1, str(1, name), ...(namespace === undefined ? [] : [str(3, namespace)]), str(5, UID), ...rest);
}

/** A Quantity map entry: value field 2 is resource.Quantity{string 1}. */
const quantityEntry = (field: number, key: string, quantity: string) => entry(field, key, msg(2, str(1, quantity)));

/** IntOrString (util/intstr): type 1 (0 int, 1 string), intVal 2, strVal 3. */
const intOrInt = (field: number, value: number) => msg(field, varint(1, 0), varint(2, value));
const intOrString = (field: number, value: string) => msg(field, varint(1, 1), str(3, value));

export const FIXTURES: Fixture[] = [
  {
    name: "configmap",
    key: "/core/configmaps/default/settings",
    kubun: {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: {
        name: "settings",
        namespace: "default",
        uid: UID,
        creationTimestamp: TS,
        labels: { app: "shop", tier: "web" },
        annotations: { "example.com/note": "a<b & c\u2028d" },
      },
      data: { a: "1", b: "2" },
    },
    // ConfigMap: metadata 1, data 2.
    protobuf: envelope(
      "v1",
      "ConfigMap",
      objectMeta(
        "settings",
        "default",
        time(8, TS),
        stringEntry(11, "app", "shop"),
        stringEntry(11, "tier", "web"),
        stringEntry(12, "example.com/note", "a<b & c\u2028d"),
      ),
      stringEntry(2, "a", "1"),
      stringEntry(2, "b", "2"),
    ),
  },
  {
    name: "secret",
    key: "/core/secrets/default/db-pass",
    kubun: {
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "db-pass", namespace: "default", uid: UID, creationTimestamp: TS },
      data: { password: "czNjcjN0" },
      type: "Opaque",
    },
    // Secret: metadata 1, data 2 (map<string, bytes>: the decoded bytes, not base64), type 3.
    protobuf: envelope(
      "v1",
      "Secret",
      objectMeta("db-pass", "default", time(8, TS)),
      entry(2, "password", bytes(2, new TextEncoder().encode("s3cr3t"))),
      str(3, "Opaque"),
    ),
  },
  {
    name: "pod",
    key: "/core/pods/default/web",
    kubun: {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "web", namespace: "default", uid: UID, creationTimestamp: TS },
      spec: {
        containers: [{
          name: "web",
          image: "nginx:1.25",
          ports: [{ containerPort: 80, protocol: "TCP" }],
          resources: { limits: { cpu: "500m" } },
        }],
        restartPolicy: "Always",
        terminationGracePeriodSeconds: 30,
        nodeName: "node-1",
        priority: 0,
        enableServiceLinks: true,
      },
      status: { phase: "Pending" },
    },
    // Pod: metadata 1, spec 2, status 3. PodSpec: containers 2, restartPolicy 3, terminationGracePeriodSeconds 4,
    // nodeName 10, priority 25 (a pointer: its zero is written), enableServiceLinks 30. Container: name 1, image 2,
    // ports 6 (ContainerPort: containerPort 3, protocol 4), resources 8 (limits 1). PodStatus: phase 1.
    protobuf: envelope(
      "v1",
      "Pod",
      objectMeta("web", "default", time(8, TS)),
      msg(
        2,
        msg(2, str(1, "web"), str(2, "nginx:1.25"), msg(6, varint(3, 80), str(4, "TCP")), msg(8, quantityEntry(1, "cpu", "500m"))),
        str(3, "Always"),
        varint(4, 30),
        str(10, "node-1"),
        varint(25, 0),
        varint(30, true),
      ),
      msg(3, str(1, "Pending")),
    ),
  },
  {
    name: "deployment",
    key: "/apps/deployments/default/web",
    kubun: {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "web", namespace: "default", uid: UID, generation: 1, creationTimestamp: TS },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: "web" } },
        template: {
          metadata: { creationTimestamp: null, labels: { app: "web" } },
          spec: { containers: [{ name: "web", image: "nginx:1.25" }] },
        },
        strategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: "25%", maxSurge: 1 } },
        revisionHistoryLimit: 10,
        progressDeadlineSeconds: 600,
      },
      status: {},
    },
    // Deployment: metadata 1, spec 2, status 3. DeploymentSpec: replicas 1, selector 2 (LabelSelector matchLabels 1),
    // template 3 (PodTemplateSpec metadata 1, spec 2), strategy 4 (type 1, rollingUpdate 2: maxUnavailable 1,
    // maxSurge 2), revisionHistoryLimit 6, progressDeadlineSeconds 9. A zero time is an empty Time message.
    protobuf: envelope(
      "apps/v1",
      "Deployment",
      objectMeta("web", "default", varint(7, 1), time(8, TS)),
      msg(
        2,
        varint(1, 0),
        msg(2, stringEntry(1, "app", "web")),
        msg(3, msg(1, msg(8), stringEntry(11, "app", "web")), msg(2, msg(2, str(1, "web"), str(2, "nginx:1.25")))),
        msg(4, str(1, "RollingUpdate"), msg(2, intOrString(1, "25%"), intOrInt(2, 1))),
        varint(6, 10),
        varint(9, 600),
      ),
      msg(3),
    ),
  },
  {
    name: "node",
    key: "/core/nodes/node-1",
    kubun: {
      apiVersion: "v1",
      kind: "Node",
      metadata: { name: "node-1", uid: UID, creationTimestamp: TS, labels: { "kubernetes.io/hostname": "node-1" } },
      spec: { podCIDR: "10.244.0.0/24", podCIDRs: ["10.244.0.0/24"] },
      status: { capacity: { memory: "8Gi", cpu: "4" }, addresses: [{ type: "InternalIP", address: "10.0.0.5" }] },
    },
    // Node: metadata 1 (no namespace), spec 2 (podCIDR 1, podCIDRs 7), status 3 (capacity 1, addresses 5: type 1,
    // address 2). Map entries go in key order, as gogo's generated Marshal sorts them (sortkeys), whatever the JSON's.
    protobuf: envelope(
      "v1",
      "Node",
      objectMeta("node-1", undefined, time(8, TS), stringEntry(11, "kubernetes.io/hostname", "node-1")),
      msg(2, str(1, "10.244.0.0/24"), str(7, "10.244.0.0/24")),
      msg(3, quantityEntry(1, "cpu", "4"), quantityEntry(1, "memory", "8Gi"), msg(5, str(1, "InternalIP"), str(2, "10.0.0.5"))),
    ),
  },
  {
    name: "service",
    key: "/core/services/default/web",
    kubun: {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "web", namespace: "default", uid: UID, creationTimestamp: TS },
      spec: {
        ports: [{ name: "http", protocol: "TCP", port: 80, targetPort: 8080 }, {
          name: "metrics",
          protocol: "TCP",
          port: 9090,
          targetPort: "metrics",
        }],
        selector: { app: "web" },
        clusterIP: "10.96.0.10",
        clusterIPs: ["10.96.0.10"],
        type: "ClusterIP",
        sessionAffinity: "None",
        ipFamilies: ["IPv4"],
        ipFamilyPolicy: "SingleStack",
        internalTrafficPolicy: "Cluster",
      },
      status: { loadBalancer: {} },
    },
    // ServiceSpec: ports 1 (ServicePort name 1, protocol 2, port 3, targetPort 4), selector 2, clusterIP 3, type 4,
    // sessionAffinity 7, ipFamilyPolicy 17, clusterIPs 18, ipFamilies 19, internalTrafficPolicy 22. ServiceStatus: loadBalancer 1.
    protobuf: envelope(
      "v1",
      "Service",
      objectMeta("web", "default", time(8, TS)),
      msg(
        2,
        msg(1, str(1, "http"), str(2, "TCP"), varint(3, 80), intOrInt(4, 8080)),
        msg(1, str(1, "metrics"), str(2, "TCP"), varint(3, 9090), intOrString(4, "metrics")),
        stringEntry(2, "app", "web"),
        str(3, "10.96.0.10"),
        str(4, "ClusterIP"),
        str(7, "None"),
        str(17, "SingleStack"),
        str(18, "10.96.0.10"),
        str(19, "IPv4"),
        str(22, "Cluster"),
      ),
      msg(3, msg(1)),
    ),
  },
  {
    name: "event",
    key: "/core/events/default/web.17a2b3c4d5e6f708",
    kubun: {
      apiVersion: "v1",
      kind: "Event",
      metadata: { name: "web.17a2b3c4d5e6f708", namespace: "default", uid: UID, creationTimestamp: TS },
      involvedObject: { kind: "Pod", namespace: "default", name: "web", uid: POD_UID, apiVersion: "v1" },
      reason: "Scheduled",
      message: "Successfully assigned default/web to node-1",
      source: { component: "default-scheduler" },
      firstTimestamp: TS,
      lastTimestamp: TS,
      count: 1,
      type: "Normal",
      eventTime: null,
      reportingComponent: "",
      reportingInstance: "",
    },
    // Event: metadata 1, involvedObject 2 (ObjectReference kind 1, namespace 2, name 3, uid 4, apiVersion 5), reason 3,
    // message 4, source 5 (component 1), firstTimestamp 6, lastTimestamp 7, count 8, type 9, eventTime 10 (a null
    // MicroTime is an empty message), reportingComponent 14, reportingInstance 15.
    protobuf: envelope(
      "v1",
      "Event",
      objectMeta("web.17a2b3c4d5e6f708", "default", time(8, TS)),
      msg(2, str(1, "Pod"), str(2, "default"), str(3, "web"), str(4, POD_UID), str(5, "v1")),
      str(3, "Scheduled"),
      str(4, "Successfully assigned default/web to node-1"),
      msg(5, str(1, "default-scheduler")),
      time(6, TS),
      time(7, TS),
      varint(8, 1),
      str(9, "Normal"),
      msg(10),
      str(14, ""),
      str(15, ""),
    ),
  },
  {
    name: "crd",
    key: "/apiextensions.k8s.io/customresourcedefinitions/crontabs.stable.example.com",
    kubun: {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: { name: "crontabs.stable.example.com", uid: UID, generation: 1, creationTimestamp: TS },
      spec: {
        group: "stable.example.com",
        names: { plural: "crontabs", singular: "crontab", kind: "CronTab", listKind: "CronTabList" },
        scope: "Namespaced",
        versions: [{
          name: "v1",
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: { type: "object", properties: { spec: { type: "object", properties: { cronSpec: { type: "string" } } } } },
          },
          subresources: { status: {} },
          additionalPrinterColumns: [{ name: "Spec", type: "string", jsonPath: ".spec.cronSpec" }],
        }],
        conversion: { strategy: "None" },
      },
      status: {
        acceptedNames: { plural: "crontabs", singular: "crontab", kind: "CronTab", listKind: "CronTabList" },
        storedVersions: ["v1"],
      },
    },
  },
  {
    name: "custom-resource",
    key: "/stable.example.com/crontabs/default/my-cron",
    kubun: {
      apiVersion: "stable.example.com/v1",
      kind: "CronTab",
      metadata: { name: "my-cron", namespace: "default", uid: UID, generation: 1, creationTimestamp: TS },
      spec: { image: "cron:1", cronSpec: "* * * * */5", note: "<tag> & more" },
    },
  },
  {
    name: "rangeallocation",
    key: "/_ranges/serviceips",
    // As the registry's service allocation writes it (kind first, no metadata but a null creationTimestamp).
    kubun: { kind: "RangeAllocation", apiVersion: "v1", metadata: { creationTimestamp: null }, range: "10.96.0.0/12", data: "AQ==" },
    // RangeAllocation: metadata 1 (a zero creationTimestamp is an empty Time), range 2, data 3 (the bitmap's bytes).
    protobuf: envelope("v1", "RangeAllocation", msg(1, msg(8)), str(2, "10.96.0.0/12"), bytes(3, new Uint8Array([1]))),
  },
];
