/** JSON merge patch (RFC 7386): objects merge key by key, null deletes, anything else replaces. */
import { isPlainObject } from "../api/types.ts";
import { ownMember, setMember } from "../api/json-member.ts";

export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return structuredClone(patch);
  const result: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else setMember(result, key, mergePatch(ownMember(result, key), value));
  }
  return result;
}
