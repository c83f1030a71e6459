/**
 * How each protobuf message maps to kube's JSON, derived from the OpenAPI v3 schemas:
 * JSON names that differ from proto names (`ref` → `$ref`, `uID` → `uid`), Go structs embedded inline
 * (`Volume.volumeSource`), slice-typed wrappers (`Verbs`, `ExtraValue`) and the scalar fields whose
 * zero value kube's JSON still prints.
 */
import protobuf from "protobufjs";
import type { MessageJsonFacts } from "../core/api/protobuf/mod.ts";
import { specialTypeOf } from "../core/api/protobuf/mod.ts";
import { definitionOfMessage } from "./protobuf-kinds.ts";
import { POINTER_SCALARS_WITH_MEANINGFUL_ZERO } from "./protobuf-pointer-facts.ts";

export type SchemaProperties = Record<string, { default?: unknown }>;

const ZERO_BY_TYPE: Record<string, unknown> = {
  string: "",
  bool: false,
  int32: 0,
  int64: 0,
  uint32: 0,
  uint64: 0,
  double: 0,
  float: 0,
};

function jsonNameOf(protoName: string, properties: SchemaProperties): string | null {
  if (protoName in properties) return protoName;
  const lower = protoName.toLowerCase();
  const candidates = [`$${protoName}`, protoName.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)];
  for (const name of Object.keys(properties)) {
    if (name.toLowerCase() === lower || candidates.includes(name)) return name;
  }
  return null;
}

function isListWrapper(type: protobuf.Type): boolean {
  const fields = type.fieldsArray;
  return fields.length === 1 && fields[0].name === "items" && fields[0].repeated;
}

/** Facts per message name for the given messages; throws when a field matches no JSON property. */
export function jsonFactsOf(
  root: protobuf.Root,
  messages: Iterable<string>,
  schemas: Record<string, { properties?: SchemaProperties }>,
): Record<string, MessageJsonFacts> {
  const facts: Record<string, MessageJsonFacts> = {};

  const describe = (name: string, properties: SchemaProperties | undefined) => {
    if (name in facts || specialTypeOf(name)) return;
    const type = root.lookupType(name);
    const fact: MessageJsonFacts = {};
    facts[name] = fact;
    if (properties === undefined) {
      if (isListWrapper(type)) fact.list = true;
      return;
    }
    for (const field of type.fieldsArray) {
      const jsonName = jsonNameOf(field.name, properties);
      const nested = field.resolvedType;
      if (jsonName === null) {
        if (!(nested instanceof protobuf.Type) || specialTypeOf(nested.fullName.slice(1))) {
          throw new Error(`${name}.${field.name} matches no JSON property`);
        }
        (fact.inline ??= []).push(field.name);
        const own = schemas[definitionOfMessage(nested.fullName.slice(1))]?.properties;
        describe(nested.fullName.slice(1), own ?? properties);
        continue;
      }
      if (jsonName !== field.name) (fact.names ??= {})[field.name] = jsonName;
      const pointerWithZero = POINTER_SCALARS_WITH_MEANINGFUL_ZERO.has(`${name}.${field.name}`);
      const printsZero = field.type in ZERO_BY_TYPE && properties[jsonName].default === ZERO_BY_TYPE[field.type];
      if (!field.repeated && (pointerWithZero || printsZero)) (fact.keepZero ??= []).push(field.name);
    }
  };

  // Messages with a schema first, so types embedded inline get their facts from the embedding message.
  const sorted = [...messages].sort();
  for (const name of sorted) {
    const properties = schemas[definitionOfMessage(name)]?.properties;
    if (properties !== undefined) describe(name, properties);
  }
  for (const name of sorted) describe(name, undefined);
  return Object.fromEntries(
    Object.entries(facts).filter(([, fact]) => Object.keys(fact).length > 0).sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}
