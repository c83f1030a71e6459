/** Shared by the walkers: the path element of a list item, list indexing, and declared-field lookup. */
import { isPlainObject } from "../../api/types.ts";
import { type FieldPath, indexElement, keyElement, type PathElement, pathToString, valueElement } from "./path-element.ts";
import type { ListType, MapType, TypeNode } from "./schema-type.ts";

/** A value that does not fit its schema, reported the way structured-merge-diff words it (`.spec.x: message`). */
export class SchemaMismatchError extends Error {
  constructor(path: FieldPath, message: string) {
    super(`${pathToString(path)}: ${message}`);
    this.name = "SchemaMismatchError";
  }
}

export function listItemElement(type: ListType, item: unknown, index: number, path: FieldPath): PathElement {
  if (type.relationship === "set") return valueElement(item);
  if (type.relationship !== "map" || type.keys.length === 0) return indexElement(index);
  if (!isPlainObject(item)) throw new SchemaMismatchError(path, "associative list with keys may not have non-map elements");
  const keys: Record<string, unknown> = {};
  for (const key of type.keys) {
    const value = item[key] ?? type.keyDefaults[key];
    if (value === undefined) {
      throw new SchemaMismatchError(
        path,
        `associative list with keys has an element that omits key field "${key}" (and doesn't have default value)`,
      );
    }
    keys[key] = value;
  }
  return keyElement(keys);
}

/** The items of a granular list by path element, in order; a repeated element is an error. */
export function indexItems(type: ListType, list: unknown, path: FieldPath): Map<PathElement, unknown> {
  const items = new Map<PathElement, unknown>();
  if (!Array.isArray(list)) return items;
  list.forEach((item, index) => {
    const element = listItemElement(type, item, index, path);
    if (items.has(element)) throw new SchemaMismatchError(path, `duplicate entries for key ${pathToString([element])}`);
    items.set(element, item);
  });
  return items;
}

/** The type of a key in a map or struct; a struct key it does not declare is an error. */
export function keyType(type: MapType, key: string, path: FieldPath): TypeNode {
  const declared = type.field(key);
  if (declared) return declared;
  if (type.element) return type.element;
  throw new SchemaMismatchError([...path, `f:${key}`], "field not declared in schema");
}

export function isDeclaredField(type: MapType, key: string): boolean {
  return type.field(key) !== undefined;
}
