/** The RFC 6902 patch from one JSON value to another, as a mutating webhook's answer would carry it. */

export type JsonPatchOperation =
  | { op: "add" | "replace"; path: string; value: unknown }
  | { op: "remove"; path: string };

/** Objects are compared key by key (removals and replacements in the old key order, then additions); arrays of equal length element by element, others replaced whole. */
export function jsonPatch(from: unknown, to: unknown, path = ""): JsonPatchOperation[] {
  if (JSON.stringify(from) === JSON.stringify(to)) return [];
  if (isObject(from) && isObject(to)) {
    const operations: JsonPatchOperation[] = [];
    for (const key of Object.keys(from)) {
      const child = `${path}/${escapePointer(key)}`;
      if (!(key in to)) operations.push({ op: "remove", path: child });
      else operations.push(...jsonPatch(from[key], to[key], child));
    }
    for (const key of Object.keys(to)) {
      if (!(key in from)) operations.push({ op: "add", path: `${path}/${escapePointer(key)}`, value: to[key] });
    }
    return operations;
  }
  if (Array.isArray(from) && Array.isArray(to) && from.length === to.length) {
    return from.flatMap((item, index) => jsonPatch(item, to[index], `${path}/${index}`));
  }
  return [{ op: "replace", path, value: to }];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** RFC 6901: `~` as `~0`, `/` as `~1`. */
function escapePointer(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}
