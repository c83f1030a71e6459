/**
 * The compiled protobufjs types of kube's messages and, per message, a plan of how each field maps to JSON.
 * Both are built once on first use and cached, so conversions never re-walk the descriptors.
 */
import type protobuf from "protobufjs/light.js";
import { protobufjs } from "../../runtime/protobufjs.ts";
import type { MessageJsonFacts } from "./descriptor-types.ts";
import { jsonFacts, KIND_MESSAGES, protoDescriptors } from "./descriptors.gen.ts";
import { specialTypeOf } from "./_special-types.ts";
import type { SpecialType } from "./_special-type.ts";

export type FieldKind = "scalar" | "int64" | "bytes" | "message" | "inline";

export interface FieldPlan {
  proto: string;
  json: string;
  kind: FieldKind;
  repeated: boolean;
  map: boolean;
  /** Go JSON prints this scalar's zero value; other zero scalars are left out. */
  keepZero: boolean;
  /** The field's message name, for kind "message" and "inline". */
  message?: string;
}

export interface MessagePlan {
  name: string;
  type: protobuf.Type;
  fields: FieldPlan[];
  /** A wrapped Go slice: JSON is the array of `items`. */
  list: boolean;
  special?: SpecialType;
}

const INT64_TYPES = new Set(["int64", "uint64", "sint64", "fixed64", "sfixed64"]);

let root: protobuf.Root | undefined;
let facts: Record<string, MessageJsonFacts> | undefined;
const plans = new Map<string, MessagePlan>();

function protoRoot(): protobuf.Root {
  if (root === undefined) {
    root = protobufjs().Root.fromJSON(protoDescriptors() as protobuf.INamespace);
    root.resolveAll();
  }
  return root;
}

function kindOf(field: protobuf.Field, inline: boolean): FieldKind {
  if (field.resolvedType instanceof protobufjs().Type) return inline ? "inline" : "message";
  if (INT64_TYPES.has(field.type)) return "int64";
  return field.type === "bytes" ? "bytes" : "scalar";
}

function fieldPlan(field: protobuf.Field, facts: MessageJsonFacts): FieldPlan {
  const plan: FieldPlan = {
    proto: field.name,
    json: facts.names?.[field.name] ?? field.name,
    kind: kindOf(field, facts.inline?.includes(field.name) ?? false),
    repeated: field.repeated,
    map: field.map,
    keepZero: facts.keepZero?.includes(field.name) ?? false,
  };
  if (field.resolvedType instanceof protobufjs().Type) plan.message = field.resolvedType.fullName.slice(1);
  return plan;
}

/** The plan of a fully qualified message name (no leading dot). */
export function planOf(name: string): MessagePlan {
  let plan = plans.get(name);
  if (plan === undefined) {
    const type = protoRoot().lookupType(name);
    const messageFacts = (facts ??= jsonFacts())[name] ?? {};
    const fields = [...type.fieldsArray].sort((a, b) => a.id - b.id).map((field) => fieldPlan(field, messageFacts));
    plan = { name, type, fields, list: messageFacts.list === true, special: specialTypeOf(name) };
    plans.set(name, plan);
  }
  return plan;
}

/** The message encoding `apiVersion`/`kind`, or undefined when kube has no protobuf form for it. */
export function messageNameOfKind(apiVersion: string, kind: string): string | undefined {
  return KIND_MESSAGES[`${apiVersion}/${kind}`];
}
