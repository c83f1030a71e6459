/**
 * The /openapi/v2 document in gnostic's protobuf form, as kube-openapi's handler serves it to kubectl:
 * the Swagger JSON mapped onto openapi.v2.Document (maps become ordered name/value lists, `x-` keys
 * vendor extensions whose values travel as YAML text).
 */
import type protobuf from "protobufjs/light.js";
import { protobufjs } from "../runtime/protobufjs.ts";
import { stringify as toYaml } from "yaml";
import { GNOSTIC_OPENAPI_V2 } from "./gnostic-openapiv2.ts";

type Json = Record<string, unknown>;

/** Content-Type kube answers with ('.' instead of the '@' kubectl asks with, so Go's mime parser accepts it). */
export const OPENAPI_V2_PROTOBUF_CONTENT_TYPE = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch"];
// Schema keywords carried as-is, only renamed to the proto's snake_case.
const PLAIN_SCHEMA_KEYS = new Set([
  "format",
  "title",
  "description",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxProperties",
  "minProperties",
  "required",
  "discriminator",
  "readOnly",
]);

let documentType: protobuf.Type | undefined;

function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

function anyValue(value: unknown): Json {
  return { yaml: toYaml(value) };
}

function namedList<T>(record: Record<string, T>, convert: (value: T) => unknown): Json[] {
  return Object.entries(record).map(([name, value]) => ({ name, value: convert(value) }));
}

function vendorExtensions(source: Json): Json[] {
  return Object.entries(source).filter(([key]) => key.startsWith("x-")).map(([name, value]) => ({ name, value: anyValue(value) }));
}

/** Adds the `x-` keys of `source` as vendor extensions, leaving the field out when there are none. */
function withExtensions(out: Json, source: Json): Json {
  const extensions = vendorExtensions(source);
  if (extensions.length > 0) out.vendor_extension = extensions;
  return out;
}

export function schemaMessage(schema: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (PLAIN_SCHEMA_KEYS.has(key)) out[snakeCase(key)] = value;
    else if (key === "$ref") out._ref = value;
    else if (key === "type") out.type = { value: Array.isArray(value) ? value : [value] };
    else if (key === "items") out.items = { schema: (Array.isArray(value) ? value : [value]).map(schemaMessage) };
    else if (key === "allOf") out.all_of = (value as Json[]).map(schemaMessage);
    else if (key === "properties") out.properties = { additional_properties: namedList(value as Record<string, Json>, schemaMessage) };
    else if (key === "additionalProperties") {
      out.additional_properties = typeof value === "boolean" ? { boolean: value } : { schema: schemaMessage(value as Json) };
    } else if (key === "enum") out.enum = (value as unknown[]).map(anyValue);
    else if (key === "default" || key === "example") out[key] = anyValue(value);
  }
  return withExtensions(out, schema);
}

const SUB_SCHEMA_OF_LOCATION: Record<string, string> = {
  query: "query_parameter_sub_schema",
  path: "path_parameter_sub_schema",
  header: "header_parameter_sub_schema",
};

function parameterMessage(parameter: Json): Json {
  if (typeof parameter.$ref === "string") return { json_reference: { _ref: parameter.$ref } };
  const { name, in: location, description, required } = parameter;
  if (location === "body") {
    return {
      parameter: { body_parameter: { description, name, in: location, required, schema: schemaMessage(parameter.schema as Json) } },
    };
  }
  const subSchema = SUB_SCHEMA_OF_LOCATION[location as string];
  if (subSchema === undefined) throw new Error(`openapi v2 protobuf: unsupported parameter location ${String(location)}`);
  const fields = {
    required,
    in: location,
    description,
    name,
    type: parameter.type,
    format: parameter.format,
    unique_items: parameter.uniqueItems,
  };
  return { parameter: { non_body_parameter: { [subSchema]: fields } } };
}

function responseMessage(response: Json): Json {
  const out: Json = { description: response.description };
  if (response.schema) out.schema = { schema: schemaMessage(response.schema as Json) };
  return { response: withExtensions(out, response) };
}

function operationMessage(operation: Json): Json {
  const out: Json = {
    tags: operation.tags,
    summary: operation.summary,
    description: operation.description,
    operation_id: operation.operationId,
    produces: operation.produces,
    consumes: operation.consumes,
    parameters: ((operation.parameters ?? []) as Json[]).map(parameterMessage),
    responses: { response_code: namedList((operation.responses ?? {}) as Record<string, Json>, responseMessage) },
    schemes: operation.schemes,
    deprecated: operation.deprecated,
  };
  return withExtensions(out, operation);
}

function pathItemMessage(item: Json): Json {
  const out: Json = { parameters: ((item.parameters ?? []) as Json[]).map(parameterMessage) };
  for (const method of METHODS) if (item[method]) out[method] = operationMessage(item[method] as Json);
  return withExtensions(out, item);
}

function securityDefinitionMessage(definition: Json): Json {
  if (definition.type !== "apiKey") throw new Error(`openapi v2 protobuf: unsupported security definition type ${String(definition.type)}`);
  return {
    api_key_security: withExtensions({
      type: definition.type,
      name: definition.name,
      in: definition.in,
      description: definition.description,
    }, definition),
  };
}

/** The Swagger 2.0 document as a plain openapi.v2.Document message (protobufjs field names). */
export function documentMessage(document: Json): Json {
  const info = (document.info ?? {}) as Json;
  return withExtensions({
    swagger: document.swagger,
    info: withExtensions({ title: info.title, version: info.version, description: info.description }, info),
    host: document.host,
    base_path: document.basePath,
    schemes: document.schemes,
    consumes: document.consumes,
    produces: document.produces,
    paths: { path: namedList((document.paths ?? {}) as Record<string, Json>, pathItemMessage) },
    definitions: { additional_properties: namedList((document.definitions ?? {}) as Record<string, Json>, schemaMessage) },
    security: ((document.security ?? []) as Record<string, string[]>[]).map((requirement) => ({
      additional_properties: namedList(requirement, (scopes) => ({ value: scopes })),
    })),
    security_definitions: {
      additional_properties: namedList((document.securityDefinitions ?? {}) as Record<string, Json>, securityDefinitionMessage),
    },
  }, document);
}

/** The compiled openapi.v2.Document type, built once. */
export function gnosticDocumentType(): protobuf.Type {
  documentType ??= protobufjs().Root.fromJSON(GNOSTIC_OPENAPI_V2 as protobuf.INamespace).lookupType("openapi.v2.Document");
  return documentType;
}

/** The bytes kube-openapi serves for `Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf`. */
export function encodeOpenApiV2Protobuf(document: Json): Uint8Array {
  return gnosticDocumentType().encode(documentMessage(document)).finish();
}
