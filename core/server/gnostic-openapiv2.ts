/**
 * protobufjs descriptors of the gnostic OpenAPI v2 messages kube serves /openapi/v2 as
 * (`application/com.github.proto-openapi.spec.v2@v1.0+protobuf`, the form kubectl downloads).
 * Field names and numbers are facts from google/gnostic `openapiv2/OpenAPIv2.proto` (package openapi.v2,
 * Apache-2.0); only the messages and fields this server writes are declared, which the wire format allows.
 */
import type { ProtoField, ProtoNamespace } from "../api/protobuf/mod.ts";

function one(type: string, id: number): ProtoField {
  return { type, id };
}

function many(type: string, id: number): ProtoField {
  return { type, id, rule: "repeated" };
}

function message(fields: Record<string, ProtoField>, oneof?: string[]): ProtoNamespace & { oneofs?: Record<string, { oneof: string[] }> } {
  return { edition: "proto3", fields, ...(oneof ? { oneofs: { oneof: { oneof } } } : {}) };
}

function named(valueType: string): ProtoNamespace {
  return message({ name: one("string", 1), value: one(valueType, 2) });
}

/** Query, path and header parameters share these leading fields; query parameters have allow_empty_value at 5. */
function simpleParameter(shift: number): ProtoNamespace {
  return message({
    required: one("bool", 1),
    in: one("string", 2),
    description: one("string", 3),
    name: one("string", 4),
    type: one("string", 5 + shift),
    format: one("string", 6 + shift),
    unique_items: one("bool", 19 + shift),
  });
}

const MESSAGES: Record<string, ProtoNamespace> = {
  Document: message({
    swagger: one("string", 1),
    info: one("Info", 2),
    host: one("string", 3),
    base_path: one("string", 4),
    schemes: many("string", 5),
    consumes: many("string", 6),
    produces: many("string", 7),
    paths: one("Paths", 8),
    definitions: one("Definitions", 9),
    security: many("SecurityRequirement", 12),
    security_definitions: one("SecurityDefinitions", 13),
    vendor_extension: many("NamedAny", 16),
  }),
  Info: message({
    title: one("string", 1),
    version: one("string", 2),
    description: one("string", 3),
    vendor_extension: many("NamedAny", 7),
  }),
  Any: message({ yaml: one("string", 2) }),
  NamedAny: named("Any"),
  Paths: message({ vendor_extension: many("NamedAny", 1), path: many("NamedPathItem", 2) }),
  NamedPathItem: named("PathItem"),
  PathItem: message({
    _ref: one("string", 1),
    get: one("Operation", 2),
    put: one("Operation", 3),
    post: one("Operation", 4),
    delete: one("Operation", 5),
    options: one("Operation", 6),
    head: one("Operation", 7),
    patch: one("Operation", 8),
    parameters: many("ParametersItem", 9),
    vendor_extension: many("NamedAny", 10),
  }),
  Operation: message({
    tags: many("string", 1),
    summary: one("string", 2),
    description: one("string", 3),
    operation_id: one("string", 5),
    produces: many("string", 6),
    consumes: many("string", 7),
    parameters: many("ParametersItem", 8),
    responses: one("Responses", 9),
    schemes: many("string", 10),
    deprecated: one("bool", 11),
    vendor_extension: many("NamedAny", 13),
  }),
  ParametersItem: message({ parameter: one("Parameter", 1), json_reference: one("JsonReference", 2) }, ["parameter", "json_reference"]),
  JsonReference: message({ _ref: one("string", 1), description: one("string", 2) }),
  Parameter: message({ body_parameter: one("BodyParameter", 1), non_body_parameter: one("NonBodyParameter", 2) }, [
    "body_parameter",
    "non_body_parameter",
  ]),
  BodyParameter: message({
    description: one("string", 1),
    name: one("string", 2),
    in: one("string", 3),
    required: one("bool", 4),
    schema: one("Schema", 5),
  }),
  NonBodyParameter: message({
    header_parameter_sub_schema: one("HeaderParameterSubSchema", 1),
    query_parameter_sub_schema: one("QueryParameterSubSchema", 3),
    path_parameter_sub_schema: one("PathParameterSubSchema", 4),
  }, ["header_parameter_sub_schema", "query_parameter_sub_schema", "path_parameter_sub_schema"]),
  HeaderParameterSubSchema: simpleParameter(0),
  PathParameterSubSchema: simpleParameter(0),
  QueryParameterSubSchema: simpleParameter(1),
  Responses: message({ response_code: many("NamedResponseValue", 1), vendor_extension: many("NamedAny", 2) }),
  NamedResponseValue: named("ResponseValue"),
  ResponseValue: message({ response: one("Response", 1), json_reference: one("JsonReference", 2) }, ["response", "json_reference"]),
  Response: message({ description: one("string", 1), schema: one("SchemaItem", 2), vendor_extension: many("NamedAny", 5) }),
  SchemaItem: message({ schema: one("Schema", 1) }, ["schema"]),
  Schema: message({
    _ref: one("string", 1),
    format: one("string", 2),
    title: one("string", 3),
    description: one("string", 4),
    default: one("Any", 5),
    multiple_of: one("double", 6),
    maximum: one("double", 7),
    exclusive_maximum: one("bool", 8),
    minimum: one("double", 9),
    exclusive_minimum: one("bool", 10),
    max_length: one("int64", 11),
    min_length: one("int64", 12),
    pattern: one("string", 13),
    max_items: one("int64", 14),
    min_items: one("int64", 15),
    unique_items: one("bool", 16),
    max_properties: one("int64", 17),
    min_properties: one("int64", 18),
    required: many("string", 19),
    enum: many("Any", 20),
    additional_properties: one("AdditionalPropertiesItem", 21),
    type: one("TypeItem", 22),
    items: one("ItemsItem", 23),
    all_of: many("Schema", 24),
    properties: one("Properties", 25),
    discriminator: one("string", 26),
    read_only: one("bool", 27),
    example: one("Any", 30),
    vendor_extension: many("NamedAny", 31),
  }),
  NamedSchema: named("Schema"),
  Properties: message({ additional_properties: many("NamedSchema", 1) }),
  Definitions: message({ additional_properties: many("NamedSchema", 1) }),
  AdditionalPropertiesItem: message({ schema: one("Schema", 1), boolean: one("bool", 2) }, ["schema", "boolean"]),
  TypeItem: message({ value: many("string", 1) }),
  ItemsItem: message({ schema: many("Schema", 1) }),
  SecurityDefinitions: message({ additional_properties: many("NamedSecurityDefinitionsItem", 1) }),
  NamedSecurityDefinitionsItem: named("SecurityDefinitionsItem"),
  SecurityDefinitionsItem: message({ api_key_security: one("ApiKeySecurity", 2) }, ["api_key_security"]),
  ApiKeySecurity: message({
    type: one("string", 1),
    name: one("string", 2),
    in: one("string", 3),
    description: one("string", 4),
    vendor_extension: many("NamedAny", 5),
  }),
  SecurityRequirement: message({ additional_properties: many("NamedStringArray", 1) }),
  NamedStringArray: named("StringArray"),
  StringArray: message({ value: many("string", 1) }),
};

/** The `openapi.v2` package as a protobufjs namespace. */
export const GNOSTIC_OPENAPI_V2: ProtoNamespace = { nested: { openapi: { nested: { v2: { nested: MESSAGES } } } } };
