// deno-lint-ignore-file no-explicit-any -- decoded JSON is read by path in assertions
import { expect, test } from "bun:test";
import { builtInCatalog } from "../registry/catalog.ts";
import { builtInSchemas } from "../schema/lookup.ts";
import { combinedSource } from "./openapi-documents.ts";
import { v2Document } from "./openapi-v2.ts";
import { encodeOpenApiV2Protobuf, gnosticDocumentType, schemaMessage } from "./openapi-v2-protobuf.ts";

type Json = Record<string, any>;

function decoded(document: Json): Json {
  const type = gnosticDocumentType();
  return type.toObject(type.decode(encodeOpenApiV2Protobuf(document)), { longs: Number, oneofs: false });
}

test("schemaMessage() maps refs, types, maps and arrays onto gnostic's Schema with x- keys as YAML vendor extensions", () => {
  expect(schemaMessage({
    type: "object",
    required: ["spec"],
    properties: {
      spec: { $ref: "#/definitions/a.Spec", "x-kubernetes-patch-strategy": "retainKeys" },
      labels: { type: "object", additionalProperties: { type: "string" } },
      raw: { type: "object", additionalProperties: true },
      ports: { type: "array", items: { type: "integer", format: "int32" }, "x-kubernetes-list-type": "set" },
    },
    enum: ["A"],
  })).toEqual({
    type: { value: ["object"] },
    required: ["spec"],
    properties: {
      additional_properties: [
        {
          name: "spec",
          value: {
            _ref: "#/definitions/a.Spec",
            vendor_extension: [{ name: "x-kubernetes-patch-strategy", value: { yaml: "retainKeys\n" } }],
          },
        },
        { name: "labels", value: { type: { value: ["object"] }, additional_properties: { schema: { type: { value: ["string"] } } } } },
        { name: "raw", value: { type: { value: ["object"] }, additional_properties: { boolean: true } } },
        {
          name: "ports",
          value: {
            type: { value: ["array"] },
            items: { schema: [{ type: { value: ["integer"] }, format: "int32" }] },
            vendor_extension: [{ name: "x-kubernetes-list-type", value: { yaml: "set\n" } }],
          },
        },
      ],
    },
    enum: [{ yaml: "A\n" }],
  });
});

test("the served v2 document survives encoding: paths, operations, parameter variants, responses, definitions, security", () => {
  const document = v2Document(combinedSource(builtInCatalog(), builtInSchemas), "v1.26.15") as Json;
  const message = decoded(document);
  expect(message.swagger).toBe("2.0");
  expect(message.info).toEqual({ title: "Kubernetes", version: "v1.26.15" });
  expect(message.paths.path.map((entry: Json) => entry.name)).toEqual(Object.keys(document.paths));
  const pods = message.paths.path.find((entry: Json) => entry.name === "/api/v1/namespaces/{namespace}/pods").value;
  expect(pods.post.operation_id).toBe("createCoreV1NamespacedPod");
  expect(pods.post.parameters[0].parameter.body_parameter).toEqual({
    name: "body",
    in: "body",
    required: true,
    schema: { _ref: "#/definitions/io.k8s.api.core.v1.Pod" },
  });
  const gvk = pods.post.vendor_extension.find((extension: Json) => extension.name === "x-kubernetes-group-version-kind");
  expect(gvk.value.yaml).toBe('group: ""\nkind: Pod\nversion: v1\n');
  const namespace = pods.parameters.find((item: Json) => item.parameter.non_body_parameter.path_parameter_sub_schema?.name === "namespace");
  expect(namespace.parameter.non_body_parameter.path_parameter_sub_schema).toEqual({
    required: true,
    in: "path",
    name: "namespace",
    type: "string",
    unique_items: true,
  });
  const ok = pods.get.responses.response_code.find((entry: Json) => entry.name === "200").value.response;
  expect(ok.schema.schema._ref).toBe("#/definitions/io.k8s.api.core.v1.PodList");
  const names = message.definitions.additional_properties.map((entry: Json) => entry.name);
  expect(names).toEqual(Object.keys(document.definitions));
  expect(message.security_definitions.additional_properties[0]).toEqual({
    name: "BearerToken",
    value: { api_key_security: { type: "apiKey", name: "authorization", in: "header", description: "Bearer token" } },
  });
  expect(message.security).toEqual([{ additional_properties: [{ name: "BearerToken", value: {} }] }]);
});
