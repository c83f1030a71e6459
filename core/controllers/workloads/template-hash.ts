/**
 * The pod-template-hash / controller-revision-hash label value: FNV-32a over the template (kube hashes its Go
 * dump, kubun a key-sorted JSON form), plus the collision count, written with kube's rand.SafeEncodeString.
 */
import { compareByteOrder } from "../../api/byte-order.ts";
const SAFE_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort((
      [a],
      [b],
    ) => compareByteOrder(a, b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

export function fnv32a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

export function templateHash(template: unknown, collisionCount = 0): string {
  const digits = String(fnv32a(canonicalJson(template) + (collisionCount > 0 ? String(collisionCount) : "")));
  return [...digits].map((c) => SAFE_ALPHABET[c.charCodeAt(0) % SAFE_ALPHABET.length]).join("");
}
