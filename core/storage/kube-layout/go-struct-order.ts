/**
 * A built-in object's JSON members in the order Go's encoding/json writes its typed struct: TypeMeta's kind and
 * apiVersion first, then each struct's fields in declaration order (field-number order, or go-field-order.gen.ts
 * where the two differ), inline structs' fields in place, map keys sorted by their bytes. Members the message does not
 * know keep their place after the known ones.
 */
import { type FieldPlan, messageNameOfKind, planOf } from "../../api/protobuf/mod.ts";
import { isPlainObject, type KubeObject } from "../../api/types.ts";
import { byUtf8 } from "./go-json.ts";
import { GO_FIELD_ORDER } from "./go-field-order.gen.ts";

type Fields = Record<string, unknown>;

const declaredFields = new Map<string, FieldPlan[]>();

function fieldsInDeclarationOrder(messageName: string): FieldPlan[] {
  let fields = declaredFields.get(messageName);
  if (fields === undefined) {
    const byNumber = planOf(messageName).fields;
    const order = GO_FIELD_ORDER[messageName];
    fields = order === undefined ? byNumber : order.map((proto) => byNumber.find((field) => field.proto === proto)!);
    declaredFields.set(messageName, fields);
  }
  return fields;
}

function valueInOrder(field: FieldPlan, value: unknown): unknown {
  const inOrder = (item: unknown) => (field.kind === "message" ? messageInOrder(field.message!, item) : item);
  if (field.map && isPlainObject(value)) {
    return Object.fromEntries(Object.keys(value).sort(byUtf8).map((key) => [key, inOrder(value[key])]));
  }
  if (field.repeated && Array.isArray(value)) return value.map(inOrder);
  return inOrder(value);
}

/** Moves the members of `object` that `messageName`'s fields name into `out`, in declaration order. */
function takeMembers(messageName: string, object: Fields, out: Fields, taken: Set<string>): void {
  for (const field of fieldsInDeclarationOrder(messageName)) {
    if (field.kind === "inline") {
      takeMembers(field.message!, object, out, taken);
    } else if (Object.hasOwn(object, field.json) && !taken.has(field.json)) {
      taken.add(field.json);
      out[field.json] = valueInOrder(field, object[field.json]);
    }
  }
}

function messageInOrder(messageName: string, value: unknown): unknown {
  const plan = planOf(messageName);
  if (plan.special || plan.list || !isPlainObject(value)) return value;
  const out: Fields = {};
  const taken = new Set<string>();
  takeMembers(messageName, value, out, taken);
  for (const [key, member] of Object.entries(value)) if (!taken.has(key)) out[key] = member;
  return out;
}

/** `obj` (of its apiVersion and kind) with its members in Go's order; kinds without a message only get TypeMeta first. */
export function inGoStructOrder(obj: KubeObject): KubeObject {
  const { kind, apiVersion, ...rest } = obj;
  const messageName = messageNameOfKind(String(apiVersion), String(kind));
  const fields = messageName === undefined ? rest : messageInOrder(messageName, rest) as Fields;
  return { kind, apiVersion, ...fields } as KubeObject;
}
