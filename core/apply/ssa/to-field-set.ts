/** The fields a value sets (structured-merge-diff's TypedValue.ToFieldSet): what an applier comes to own. */
import { isPlainObject } from "../../api/types.ts";
import { indexItems, isDeclaredField, keyType } from "./_items.ts";
import { emptySet, type FieldSet, insertPath } from "./field-set.ts";
import { fieldElement, type PathElement } from "./path-element.ts";
import { isGranular, resolveType, type TypeNode } from "./schema-type.ts";

export function toFieldSet(value: unknown, type: TypeNode): FieldSet {
  const set = emptySet();
  collect(value, type, [], set);
  return set;
}

function collect(value: unknown, declared: TypeNode, path: PathElement[], set: FieldSet): void {
  const type = resolveType(declared, value);
  if (!isGranular(type)) {
    insertPath(set, path);
    return;
  }
  if (type.kind === "list") {
    for (const [element, item] of indexItems(type, value, path)) {
      collect(item, type.element, [...path, element], set);
      insertPath(set, [...path, element]);
    }
    return;
  }
  if (type.kind !== "map" || !isPlainObject(value)) return;
  for (const [key, child] of Object.entries(value)) {
    const childPath = [...path, fieldElement(key)];
    collect(child, keyType(type, key, path), childPath, set);
    // Map keys, nulls and empty objects are owned themselves; struct fields only through what they contain.
    if (child === null || (isPlainObject(child) && Object.keys(child).length === 0) || !isDeclaredField(type, key)) {
      insertPath(set, childPath);
    }
  }
}
