/**
 * Go pointer scalars set to their zero (`runAsUser: 0`, `attachRequired: false`, `storageClassName: ""`) survive a
 * protobuf create and read back unchanged, in JSON and in protobuf, as kube's generated protobuf code keeps a non-nil
 * pointer (k8s.io/api generated.pb.go's Marshal writes it, Unmarshal sets it). With KUBUN_TEST_STORAGE=etcd the
 * objects are also stored as protobuf, so the read back crosses the codec once more.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createNamespace, getJson, type Json } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";
import { decodeProtobufObject, encodeProtobufObject, PROTOBUF_MEDIA_TYPE } from "../core/api/protobuf/mod.ts";
import { POINTER_ZERO_OBJECTS } from "../core/api/protobuf/testdata/pointer-zeros.ts";

const NAMESPACE = "zeros";

// Collection path prefix and resource of each sample kind; namespaced unless marked.
const RESOURCES: Record<string, { prefix: string; resource: string; cluster?: true }> = {
  Pod: { prefix: "/api/v1", resource: "pods" },
  Service: { prefix: "/api/v1", resource: "services" },
  PersistentVolumeClaim: { prefix: "/api/v1", resource: "persistentvolumeclaims" },
  ConfigMap: { prefix: "/api/v1", resource: "configmaps" },
  StatefulSet: { prefix: "/apis/apps/v1", resource: "statefulsets" },
  HorizontalPodAutoscaler: { prefix: "/apis/autoscaling/v2", resource: "horizontalpodautoscalers" },
  Lease: { prefix: "/apis/coordination.k8s.io/v1", resource: "leases" },
  EndpointSlice: { prefix: "/apis/discovery.k8s.io/v1", resource: "endpointslices" },
  PodDisruptionBudget: { prefix: "/apis/policy/v1", resource: "poddisruptionbudgets" },
  CSIDriver: { prefix: "/apis/storage.k8s.io/v1", resource: "csidrivers", cluster: true },
  StorageClass: { prefix: "/apis/storage.k8s.io/v1", resource: "storageclasses", cluster: true },
  PriorityLevelConfiguration: {
    prefix: "/apis/flowcontrol.apiserver.k8s.io/v1beta3",
    resource: "prioritylevelconfigurations",
    cluster: true,
  },
};

function collectionOf(kind: string): string {
  const { prefix, resource, cluster } = RESOURCES[kind];
  return cluster ? `${prefix}/${resource}` : `${prefix}/namespaces/${NAMESPACE}/${resource}`;
}

/** The parts of `actual` at the paths `written` sets, so fields the server adds (defaults, metadata) are ignored. */
function atWrittenPaths(actual: Json, written: Json): Json {
  if (Array.isArray(written)) return written.map((item, i) => atWrittenPaths(actual?.[i], item));
  if (written === null || typeof written !== "object") return actual;
  return Object.fromEntries(Object.keys(written).map((key) => [key, atWrittenPaths(actual?.[key], written[key])]));
}

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NAMESPACE);
});
afterAll(async () => {
  await server?.stop();
});

for (const object of POINTER_ZERO_OBJECTS) {
  test(`a ${object.apiVersion} ${object.kind} created in protobuf reads back with its explicit pointer zeros, in JSON and in protobuf`, async () => {
    const collection = collectionOf(object.kind);
    const created = await server.request("POST", collection, {
      body: encodeProtobufObject(object, object.apiVersion, object.kind) as Uint8Array<ArrayBuffer>,
      headers: { "Content-Type": PROTOBUF_MEDIA_TYPE, Accept: "application/json" },
    });
    expect({ status: created.status, body: created.status === 201 ? undefined : await created.text() }).toEqual({
      status: 201,
      body: undefined,
    });
    const path = `${collection}/${object.metadata.name}`;
    expect(atWrittenPaths(await getJson(server, path), object)).toEqual(object);
    const answer = await server.request("GET", path, { headers: { Accept: PROTOBUF_MEDIA_TYPE } });
    expect(answer.headers.get("Content-Type")).toBe(PROTOBUF_MEDIA_TYPE);
    const { object: decoded } = decodeProtobufObject(new Uint8Array(await answer.arrayBuffer()));
    expect(atWrittenPaths(decoded, object)).toEqual(object);
  });
}
