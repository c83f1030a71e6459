/** FieldsV1, the JSON form of a field set stored in managedFields (`{"f:spec":{"f:replicas":{}}}`, `.` for the node itself). */
import { isPlainObject } from "../../api/types.ts";
import { emptySet, type FieldSet } from "./field-set.ts";
import { checkElement, compareElements } from "./path-element.ts";

export type FieldsV1 = Record<string, unknown>;

/** Serializes with kube's key order: `.` first, then elements in structured-merge-diff's order. */
export function toFieldsV1(set: FieldSet): FieldsV1 {
  return withChildren({}, set);
}

/** Adds the set's children to `out` after what it holds (a member's `.`), each node filled in place, not copied. */
function withChildren(out: FieldsV1, set: FieldSet): FieldsV1 {
  const elements = set.children.size > 1 ? [...set.children.keys()].sort(compareElements) : set.children.keys();
  for (const element of elements) {
    const child = set.children.get(element)!;
    out[element] = child.children.size === 0 ? {} : withChildren(child.member ? { ".": {} } : {}, child);
  }
  return out;
}

/** Parses FieldsV1; throws an Error naming the bad part when it is not a valid field set. */
export function fromFieldsV1(json: unknown): FieldSet {
  if (!isPlainObject(json)) throw new Error("FieldsV1 must be a JSON object");
  const set = emptySet();
  for (const [key, value] of Object.entries(json)) {
    if (key === ".") {
      set.member = true;
      continue;
    }
    checkElement(key);
    if (!isPlainObject(value)) throw new Error(`FieldsV1 entry ${key} must be an object`);
    const child = fromFieldsV1(value);
    // An empty object is a leaf: the path itself is owned.
    if (Object.keys(value).length === 0) child.member = true;
    set.children.set(key, child);
  }
  return set;
}
