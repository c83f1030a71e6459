/** Renders operations and compact schemas as an OpenAPI 3.0 document shaped like kube-apiserver 1.26's /openapi/v3/<gv>. */
import { reachableDefinitions } from "../schema/references.ts";
import type { Definitions, Schema } from "../schema/types.ts";
import { type Operation, type Parameter, type PathOperations, type Payload, RESPONSE_TEXT, splitParameters } from "./openapi-model.ts";

type Json = Record<string, unknown>;

const REF = "#/components/schemas/";

/** A compact schema in kube's v3 shape: nested refs wrapped as `allOf: [{$ref}]` beside their siblings. */
export function v3Schema(schema: Schema): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "ref") out.allOf = [{ $ref: REF + value }];
    else if (key === "properties") {
      out.properties = Object.fromEntries(Object.entries(value as Record<string, Schema>).map(([name, field]) => [name, v3Schema(field)]));
    } else if (key === "items" || (key === "additionalProperties" && typeof value === "object")) out[key] = v3Schema(value as Schema);
    else if (key === "oneOf") out.oneOf = (value as Schema[]).map(v3Schema);
    else out[key] = value;
  }
  return out;
}

function payloadSchema(payload: Payload): Json {
  return "ref" in payload ? { $ref: REF + payload.ref } : { type: payload.type };
}

function content(mediaTypes: readonly string[], schema: Json): Json {
  return Object.fromEntries([...mediaTypes].sort().map((mediaType) => [mediaType, { schema }]));
}

function v3Parameter(parameter: Parameter): Json {
  return {
    name: parameter.name,
    in: parameter.in,
    ...(parameter.in === "path" ? { required: true } : {}),
    schema: { type: parameter.type, uniqueItems: true },
  };
}

function v3Operation(operation: Operation, parameters: Parameter[]): Json {
  const out: Json = { tags: [operation.tag], operationId: operation.operationId };
  if (parameters.length > 0) out.parameters = parameters.map(v3Parameter);
  if (operation.body) out.requestBody = { content: content(operation.body.mediaTypes, { $ref: REF + operation.body.ref }) };
  out.responses = Object.fromEntries(operation.responses.map((response) => [
    response.code,
    {
      description: RESPONSE_TEXT[response.code],
      ...(response.payload ? { content: content(response.mediaTypes, payloadSchema(response.payload)) } : {}),
    },
  ]));
  if (operation.action) out["x-kubernetes-action"] = operation.action;
  if (operation.gvk) out["x-kubernetes-group-version-kind"] = operation.gvk;
  return out;
}

/** Definition names the operations' bodies and responses refer to. */
export function payloadRefs(paths: PathOperations): Set<string> {
  const refs = new Set<string>();
  for (const operations of paths.values()) {
    for (const operation of operations) {
      if (operation.body) refs.add(operation.body.ref);
      for (const response of operation.responses) if (response.payload && "ref" in response.payload) refs.add(response.payload.ref);
    }
  }
  return refs;
}

/** The definitions reachable from the operations; throws if one is missing (a catalog/schema mismatch). */
export function reachableSchemas(paths: PathOperations, definitions: Definitions): [string, Schema][] {
  const { names, missing } = reachableDefinitions(definitions, payloadRefs(paths));
  if (missing.length > 0) throw new Error(`OpenAPI refers to unknown definitions: ${missing.join(", ")}`);
  return names.map((name) => [name, definitions[name]]);
}

/** The document for one /openapi/v3/<key>. */
export function v3Document(paths: PathOperations, definitions: Definitions): Json {
  const renderedPaths: Json = {};
  for (const route of [...paths.keys()].sort()) {
    const operations = paths.get(route)!;
    const { shared, own } = splitParameters(operations);
    const item: Json = {};
    operations.forEach((operation, index) => (item[operation.method] = v3Operation(operation, own[index])));
    if (shared.length > 0) item.parameters = shared.map(v3Parameter);
    renderedPaths[route] = item;
  }
  const schemas = Object.fromEntries(reachableSchemas(paths, definitions).map(([name, schema]) => [name, v3Schema(schema)]));
  return {
    openapi: "3.0.0",
    info: { title: "Kubernetes", version: "unversioned" },
    paths: renderedPaths,
    components: { schemas },
  };
}
