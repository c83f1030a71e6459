/**
 * List items as kube-apiserver writes them. A built-in kind's list is typed: ListResource hands the internal list to
 * transformResponseObject, the versioning codec converts it to the served version, and runtime.Scheme's
 * setTargetKind sets apiVersion/kind on the list only, so its items (decoded to the internal version with an empty
 * TypeMeta) are written without them, in JSON, YAML and a deletecollection's answer alike. A custom resource's
 * UnstructuredList keeps each item's; a watch event's object is encoded alone and keeps them; asTable converts
 * each includeObject=Object row with ConvertToVersion; asPartialObjectMetadataList types each item
 * PartialObjectMetadata; kubectl re-adds the kind to the items it prints.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { parse as parseYaml } from "yaml";
import { createNamespace, type Json, sendJson } from "./_api.ts";
import { exampleCrd } from "./_crd.ts";
import { kubectlOk } from "./_kubectl.ts";
import { startServer, type TestServer } from "./harness.ts";
import { decodeProtobufObject, PROTOBUF_MEDIA_TYPE } from "../core/api/protobuf/mod.ts";
import { WatchStream } from "./watch-stream.ts";

const NS = "list-items";
const CONFIGMAPS = `/api/v1/namespaces/${NS}/configmaps`;
const CRD = exampleCrd({ plural: "gadgets", singular: "gadget", kind: "Gadget", listKind: "GadgetList" }, { type: "object" });
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NS);
  for (const name of ["a", "b", "c"]) {
    const created = await sendJson(server, "POST", CONFIGMAPS, { apiVersion: "v1", kind: "ConfigMap", metadata: { name } });
    expect(created.status).toBe(201);
  }
  const pod = { apiVersion: "v1", kind: "Pod", metadata: { name: "p" }, spec: { containers: [{ name: "c", image: "busybox" }] } };
  expect((await sendJson(server, "POST", `/api/v1/namespaces/${NS}/pods`, pod)).status).toBe(201);
  const hpa = {
    apiVersion: "autoscaling/v1",
    kind: "HorizontalPodAutoscaler",
    metadata: { name: "h" },
    spec: { scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "d" }, maxReplicas: 2 },
  };
  expect((await sendJson(server, "POST", `/apis/autoscaling/v1/namespaces/${NS}/horizontalpodautoscalers`, hpa)).status).toBe(201);
  await kubectlOk(server, ["create", "-f", "-"], CRD);
  await kubectlOk(server, ["wait", "--for", "condition=established", "--timeout=10s", "crd/gadgets.example.com"]);
  const gadget = { apiVersion: "example.com/v1", kind: "Gadget", metadata: { name: "g" }, spec: {} };
  expect((await sendJson(server, "POST", `/apis/example.com/v1/namespaces/${NS}/gadgets`, gadget)).status).toBe(201);
}, 60_000);
afterAll(() => server.stop());

async function getText(path: string, accept = "application/json"): Promise<string> {
  const response = await server.request("GET", path, { headers: { Accept: accept } });
  expect({ path, status: response.status }).toEqual({ path, status: 200 });
  return await response.text();
}

/** The list's own TypeMeta, and every item's apiVersion/kind (undefined when absent). */
function typeMetaOf(list: Json): { list: [string, string]; items: [string | undefined, string | undefined][] } {
  expect(list.items.length).toBeGreaterThan(0);
  return { list: [list.apiVersion, list.kind], items: list.items.map((item: Json) => [item.apiVersion, item.kind]) };
}

const untyped = (list: Json): [undefined, undefined][] => list.items.map(() => [undefined, undefined]);

test("a JSON list of a built-in kind has kind/apiVersion on the list only, its items start with metadata (setTargetKind types the list)", async () => {
  for (
    const [path, listKind] of [
      [CONFIGMAPS, ["v1", "ConfigMapList"]],
      ["/api/v1/configmaps", ["v1", "ConfigMapList"]],
      [`${CONFIGMAPS}?limit=2`, ["v1", "ConfigMapList"]],
      [`/api/v1/namespaces/${NS}/pods`, ["v1", "PodList"]],
      [`/apis/autoscaling/v1/namespaces/${NS}/horizontalpodautoscalers`, ["autoscaling/v1", "HorizontalPodAutoscalerList"]],
    ] as const
  ) {
    const text = await getText(path);
    const list = JSON.parse(text);
    expect({ path, ...typeMetaOf(list) }).toEqual({ path, list: [...listKind], items: untyped(list) });
    expect(text).toContain('"items":[{"metadata":{');
  }
});

test("an indented JSON list and a YAML list of a built-in kind carry no TypeMeta on their items either", async () => {
  const pretty = JSON.parse(await getText(`${CONFIGMAPS}?pretty=true`));
  expect(typeMetaOf(pretty)).toEqual({ list: ["v1", "ConfigMapList"], items: untyped(pretty) });
  const yaml = await getText(CONFIGMAPS, "application/yaml");
  const fromYaml = parseYaml(yaml);
  expect(typeMetaOf(fromYaml)).toEqual({ list: ["v1", "ConfigMapList"], items: untyped(fromYaml) });
  expect(yaml).toMatch(/\nitems:\n *- metadata:\n/);
});

test("a protobuf list's items carry no TypeMeta: the item message has no field for it, only the runtime.Unknown envelope does", async () => {
  const response = await server.request("GET", CONFIGMAPS, { headers: { Accept: PROTOBUF_MEDIA_TYPE } });
  const decoded = decodeProtobufObject(new Uint8Array(await response.arrayBuffer()));
  expect(decoded.kind).toBe("ConfigMapList");
  expect(typeMetaOf(decoded.object).items).toEqual(untyped(decoded.object));
});

test("a custom resource's list (UnstructuredList) keeps apiVersion and kind on every item", async () => {
  const list = JSON.parse(await getText(`/apis/example.com/v1/namespaces/${NS}/gadgets`));
  expect(typeMetaOf(list)).toEqual({ list: ["example.com/v1", "GadgetList"], items: [["example.com/v1", "Gadget"]] });
  const yaml = parseYaml(await getText(`/apis/example.com/v1/namespaces/${NS}/gadgets`, "application/yaml"));
  expect(typeMetaOf(yaml).items).toEqual([["example.com/v1", "Gadget"]]);
});

test("a watch event's object keeps apiVersion and kind (watchEncoder encodes each object alone)", async () => {
  const response = await server.request("GET", `${CONFIGMAPS}?watch=1&resourceVersion=0&timeoutSeconds=5`, {
    headers: { Accept: "application/json" },
  });
  const stream = new WatchStream(response);
  try {
    const events = await stream.until((event) => event.object.metadata.name === "c");
    for (const event of events) expect([event.object.apiVersion, event.object.kind]).toEqual(["v1", "ConfigMap"]);
  } finally {
    await stream.close();
  }
});

test("Table rows with includeObject=Object embed objects with TypeMeta (asTable's ConvertToVersion); metadata-only items are PartialObjectMetadata", async () => {
  const table = JSON.parse(await getText(`${CONFIGMAPS}?includeObject=Object`, "application/json;as=Table;v=v1;g=meta.k8s.io"));
  for (const row of table.rows) expect([row.object.apiVersion, row.object.kind]).toEqual(["v1", "ConfigMap"]);
  const partial = JSON.parse(await getText(CONFIGMAPS, "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io"));
  expect(typeMetaOf(partial).items.every(([v, k]) => v === "meta.k8s.io/v1" && k === "PartialObjectMetadata")).toBe(true);
});

test("kubectl get -o json and -o yaml still show kind and apiVersion on every item (kubectl adds them)", async () => {
  const json = JSON.parse(await kubectlOk(server, ["get", "configmaps", "-n", NS, "-o", "json"]));
  for (const item of json.items) expect([item.apiVersion, item.kind]).toEqual(["v1", "ConfigMap"]);
  const yaml = parseYaml(await kubectlOk(server, ["get", "pods", "-n", NS, "-o", "yaml"]));
  expect(yaml.items.map((item: Json) => [item.apiVersion, item.kind])).toEqual([["v1", "Pod"]]);
});

test("a deletecollection's answer is a typed list: its items carry no TypeMeta (Store.DeleteCollection's listObj)", async () => {
  const answer = await sendJson(server, "DELETE", `${CONFIGMAPS}?labelSelector=!absent`);
  expect(answer.status).toBe(200);
  expect(typeMetaOf(answer.body)).toEqual({ list: ["v1", "ConfigMapList"], items: untyped(answer.body) });
});
