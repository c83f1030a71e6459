/** Removes the paths of a field set from a value (structured-merge-diff's RemoveItems): an owned path goes with all below it. */
import { isPlainObject } from "../../api/types.ts";
import { listItemElement } from "./_items.ts";
import { type FieldSet, isEmptySet } from "./field-set.ts";
import { fieldElement, type PathElement } from "./path-element.ts";
import { DEDUCED, isGranular, resolveType, type TypeNode } from "./schema-type.ts";
import { setMember } from "../../api/json-member.ts";

export function removePaths(value: unknown, set: FieldSet, type: TypeNode, path: PathElement[] = []): unknown {
  const resolved = resolveType(type, value);
  if (isEmptySet(set) || !isGranular(resolved)) return value;
  if (resolved.kind === "list") {
    if (!Array.isArray(value)) return value;
    const out: unknown[] = [];
    value.forEach((item, index) => {
      const element = listItemElement(resolved, item, index, path);
      const below = set.children.get(element);
      if (below?.member) return;
      out.push(below ? removePaths(item, below, resolved.element, [...path, element]) : item);
    });
    return out;
  }
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const below = set.children.get(fieldElement(key));
    if (below?.member) continue;
    setMember(
      out,
      key,
      below ? removePaths(child, below, resolved.field(key) ?? resolved.element ?? DEDUCED, [...path, fieldElement(key)]) : child,
    );
  }
  return out;
}
