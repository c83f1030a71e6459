import { expect, test } from "bun:test";
import { decodeProtobufObject } from "../api/protobuf/mod.ts";
import { newNotFound } from "../api/errors.ts";
import type { Representation } from "../api/negotiate.ts";
import { type EncodeOptions, respondError, respondList, respondPlain } from "./respond.ts";

const podNotFound = () => newNotFound({ group: "", resource: "pods" }, "web");

test("respondError() answers JSON when the Accept header is absent or names no Status form", async () => {
  for (const accept of [undefined, "text/html", "application/json;as=Table;v=v1;g=meta.k8s.io"]) {
    const response = respondError(podNotFound(), accept);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect((await response.json()).reason).toBe("NotFound");
  }
});

test("respondError() answers a protobuf Status when protobuf comes first in Accept", async () => {
  const response = respondError(podNotFound(), "application/vnd.kubernetes.protobuf,application/json");
  expect(response.headers.get("content-type")).toBe("application/vnd.kubernetes.protobuf");
  const decoded = decodeProtobufObject(new Uint8Array(await response.arrayBuffer()));
  expect(decoded.kind).toBe("Status");
  expect(decoded.object).toMatchObject({
    apiVersion: "v1",
    status: "Failure",
    reason: "NotFound",
    code: 404,
    details: { name: "web", kind: "pods" },
  });
  expect(decoded.object.message).toBe('pods "web" not found');
});

test("respondError() follows the Accept order: JSON listed before protobuf wins", () => {
  const response = respondError(podNotFound(), "application/json,application/vnd.kubernetes.protobuf");
  expect(response.headers.get("content-type")).toBe("application/json");
});

test("respondError() answers YAML when YAML is asked first, as kube's negotiated serializer does", async () => {
  const response = respondError(podNotFound(), "application/yaml");
  expect(response.headers.get("content-type")).toBe("application/yaml");
  expect(await response.text()).toContain("reason: NotFound");
});

test("respondPlain() writes a success Status in protobuf when that form was negotiated", async () => {
  const status = { kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", code: 201 };
  const response = respondPlain(status, 201, { representation: { format: "protobuf" }, pretty: false, includeObject: "Object" });
  expect(decodeProtobufObject(new Uint8Array(await response.arrayBuffer())).object).toEqual(status);
});

const configMaps = (count: number) => ({
  kind: "ConfigMapList",
  apiVersion: "v1",
  metadata: { resourceVersion: "9" },
  items: Array.from({ length: count }, (_, i) => ({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: `cm-${i}`, namespace: "ns", resourceVersion: "9" },
  })),
});
const listOptions = (representation: Representation, pretty = false): EncodeOptions => ({
  representation,
  pretty,
  includeObject: "Object",
});

test("respondList() writes a typed list's items without TypeMeta in JSON and YAML, whole or streamed (runtime.Scheme setTargetKind)", async () => {
  for (const count of [2, 600]) {
    for (const options of [listOptions({ format: "json" }), listOptions({ format: "json" }, true)]) {
      const list = await respondList(configMaps(count), options, "omitted").json();
      expect(list).toMatchObject({ kind: "ConfigMapList", apiVersion: "v1" });
      expect(list.items.length).toBe(count);
      for (const item of list.items) expect(Object.keys(item)).toEqual(["metadata"]);
    }
    const yaml = await respondList(configMaps(count), listOptions({ format: "yaml" }), "omitted").text();
    expect(yaml).toContain("kind: ConfigMapList\n");
    expect(yaml).not.toMatch(/^\s+(kind|apiVersion):/m);
  }
});

test("respondList() keeps an UnstructuredList's items' apiVersion and kind when told to", async () => {
  for (const count of [2, 600]) {
    const list = await respondList(configMaps(count), listOptions({ format: "json" }), "kept").json();
    for (const item of list.items) expect(item).toMatchObject({ apiVersion: "v1", kind: "ConfigMap" });
  }
});

test("respondList(): Table rows' embedded objects keep TypeMeta (asTable's ConvertToVersion), metadata-only items are PartialObjectMetadata (asPartialObjectMetadataList)", async () => {
  const table = await respondList(configMaps(2), listOptions({ format: "table", version: "v1" }), "omitted").json();
  for (const row of table.rows) expect(row.object).toMatchObject({ apiVersion: "v1", kind: "ConfigMap" });
  const partial = await respondList(configMaps(2), listOptions({ format: "partial-metadata", version: "v1" }), "omitted").json();
  for (const item of partial.items) expect(item).toMatchObject({ apiVersion: "meta.k8s.io/v1", kind: "PartialObjectMetadata" });
});
