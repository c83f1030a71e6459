/** Renders every served operation and the definitions they need as kube-apiserver 1.26's /openapi/v2 (Swagger 2.0). */
import type { Schema } from "../schema/types.ts";
import { type Operation, type Parameter, type PathOperations, RESPONSE_TEXT, splitParameters } from "./openapi-model.ts";
import type { DocumentSource } from "./openapi-documents.ts";
import { reachableSchemas } from "./openapi-v3.ts";
import { v2Definition } from "./openapi-v2-structural.ts";

type Json = Record<string, unknown>;

const REF = "#/definitions/";

/**
 * A compact schema in v2 shape: refs are plain `$ref` beside their extensions, defaults are not
 * written (kube's v2 has none), and multi-type scalars (IntOrString, Quantity) are strings.
 */
export function v2Schema(schema: Schema): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "ref") out.$ref = REF + value;
    else if (key === "default") continue;
    else if (key === "oneOf") out.type = "string";
    else if (key === "properties") {
      out.properties = Object.fromEntries(Object.entries(value as Record<string, Schema>).map(([name, field]) => [name, v2Schema(field)]));
    } else if (key === "items" || (key === "additionalProperties" && typeof value === "object")) out[key] = v2Schema(value as Schema);
    else out[key] = value;
  }
  return out;
}

function v2Parameter(parameter: Parameter): Json {
  return {
    name: parameter.name,
    in: parameter.in,
    ...(parameter.in === "path" ? { required: true } : {}),
    type: parameter.type,
    uniqueItems: true,
  };
}

function v2Operation(operation: Operation, parameters: Parameter[]): Json {
  const ok = operation.responses.find((response) => response.code === "200");
  const out: Json = {
    tags: [operation.tag],
    operationId: operation.operationId,
    // Discovery operations (the ones without an action) declare their output types as input types too.
    consumes: operation.body?.mediaTypes ?? operation.consumes ?? (operation.action ? ["*/*"] : ok?.mediaTypes),
    produces: ok?.mediaTypes,
    schemes: ["https"],
  };
  const body = operation.body
    ? [{ name: "body", in: "body", ...(operation.body.required ? { required: true } : {}), schema: { $ref: REF + operation.body.ref } }]
    : [];
  if (body.length + parameters.length > 0) out.parameters = [...body, ...parameters.map(v2Parameter)];
  out.responses = Object.fromEntries(operation.responses.map((response) => {
    const payload = response.payload;
    const schema = payload ? ("ref" in payload ? { $ref: REF + payload.ref } : { type: payload.type }) : undefined;
    return [response.code, { description: RESPONSE_TEXT[response.code], ...(schema ? { schema } : {}) }];
  }));
  if (operation.action) out["x-kubernetes-action"] = operation.action;
  if (operation.gvk) out["x-kubernetes-group-version-kind"] = operation.gvk;
  return out;
}

function v2Paths(paths: PathOperations): Json {
  const rendered: Json = {};
  for (const route of [...paths.keys()].sort()) {
    const operations = paths.get(route)!;
    const { shared, own } = splitParameters(operations);
    const item: Json = {};
    operations.forEach((operation, index) => (item[operation.method] = v2Operation(operation, own[index])));
    if (shared.length > 0) item.parameters = shared.map(v2Parameter);
    rendered[route] = item;
  }
  return rendered;
}

/** The whole /openapi/v2 document. */
export function v2Document(source: DocumentSource, serverVersion: string): Json {
  return {
    swagger: "2.0",
    info: { title: "Kubernetes", version: serverVersion },
    paths: v2Paths(source.paths),
    definitions: Object.fromEntries(
      reachableSchemas(source.paths, source.definitions).map(([name, schema]) => [name, v2Schema(v2Definition(schema))]),
    ),
    securityDefinitions: { BearerToken: { type: "apiKey", name: "authorization", in: "header", description: "Bearer token" } },
    security: [{ BearerToken: [] }],
  };
}
