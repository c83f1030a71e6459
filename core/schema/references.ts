/** Following `ref`s between definitions. */
import type { Definitions, Schema } from "./types.ts";

/** Every definition name `schema` refers to directly or through nested schemas, in walk order. */
export function referencedNames(schema: Schema): string[] {
  const names: string[] = [];
  const visit = (node: Schema): void => {
    if (node.ref) names.push(node.ref);
    for (const field of Object.values(node.properties ?? {})) visit(field);
    if (node.items) visit(node.items);
    if (typeof node.additionalProperties === "object") visit(node.additionalProperties);
    for (const option of node.oneOf ?? []) visit(option);
  };
  visit(schema);
  return names;
}

/** `roots` and every definition reachable from them, sorted; names absent from `definitions` are reported as missing. */
export function reachableDefinitions(
  definitions: Definitions,
  roots: Iterable<string>,
): { names: string[]; missing: string[] } {
  const seen = new Set<string>();
  const missing = new Set<string>();
  const pending = [...roots];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (seen.has(name) || missing.has(name)) continue;
    const schema = definitions[name];
    if (!schema) {
      missing.add(name);
      continue;
    }
    seen.add(name);
    pending.push(...referencedNames(schema));
  }
  return { names: [...seen].sort(), missing: [...missing].sort() };
}
