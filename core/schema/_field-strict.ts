/**
 * kube's Strict message: every unknown and duplicate field in one 400, in the order the decoder met them
 * in the document. A field both unknown and duplicated counts once, as unknown, as in kube.
 */
import { newBadRequest, type StatusError } from "../api/errors.ts";
import { MAX_STRICT_ERRORS } from "../api/decode-body.ts";
import { isPlainObject } from "../api/types.ts";

/** A 32-bit polynomial hash of `text` continued from `hash`, so a path's hash grows segment by segment. */
function extendHash(hash: number, text: string): number {
  let h = hash;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return h;
}

const SEGMENT_START = new Set([".", "["]);

/** Calls `visit` with the hash of every prefix of `path` that ends where a segment starts, and of the whole path. */
function eachPrefixHash(path: string, visit: (hash: number, end: number) => void): void {
  let hash = 0;
  for (let i = 0; i < path.length; i++) {
    if (i > 0 && SEGMENT_START.has(path[i])) visit(hash, i);
    hash = (Math.imul(hash, 31) + path.charCodeAt(i)) | 0;
  }
  visit(hash, path.length);
}

/**
 * The document order of the `wanted` field paths in `value`. Only the branches leading to a wanted path are
 * walked (recognised by the hashes of the paths' prefixes), and a path is spelled out only where one may end,
 * so a deep or wide body costs its size, not its size times its depth.
 */
function documentPositions(value: unknown, wanted: readonly string[]): Map<string, number> {
  const wantedSet = new Set(wanted);
  const prefixes = new Set<number>();
  const ends = new Set<number>();
  for (const path of wanted) {
    eachPrefixHash(path, (hash, end) => {
      prefixes.add(hash);
      if (end === path.length) ends.add(hash);
    });
  }
  const positions = new Map<string, number>();
  const segments: string[] = [];
  const visit = (node: unknown, hash: number): void => {
    const enter = (segment: string, child: unknown): void => {
      const childHash = extendHash(hash, segment);
      if (!prefixes.has(childHash)) return;
      segments.push(segment);
      if (ends.has(childHash)) {
        const path = segments.join("");
        if (wantedSet.has(path) && !positions.has(path)) positions.set(path, positions.size);
      }
      visit(child, childHash);
      segments.pop();
    };
    if (Array.isArray(node)) node.forEach((item, i) => enter(`[${i}]`, item));
    else if (isPlainObject(node)) { for (const key of Object.keys(node)) enter(segments.length === 0 ? key : `.${key}`, node[key]); }
  };
  visit(value, 0);
  return positions;
}

/**
 * The duplicate paths not inside an unknown field (kube reports those as unknown only). Linear in the lengths
 * of all paths: only unknown fields whose hash matches a prefix of some duplicate are compared as text.
 */
function outsideUnknown(duplicateFields: string[], unknownFields: string[]): string[] {
  if (duplicateFields.length === 0 || unknownFields.length === 0) return duplicateFields;
  const duplicatePrefixes = new Set<number>();
  for (const path of duplicateFields) eachPrefixHash(path, (hash) => duplicatePrefixes.add(hash));
  const covering = new Set<string>();
  const coveringHashes = new Set<number>();
  for (const path of unknownFields) {
    eachPrefixHash(path, (hash, end) => {
      if (end === path.length && duplicatePrefixes.has(hash)) {
        covering.add(path);
        coveringHashes.add(hash);
      }
    });
  }
  if (covering.size === 0) return duplicateFields;
  return duplicateFields.filter((path) => {
    let inside = false;
    eachPrefixHash(path, (hash, end) => (inside ||= coveringHashes.has(hash) && covering.has(path.slice(0, end))));
    return !inside;
  });
}

/** `strict decoding error: unknown field "spec.x", duplicate field "metadata.name"` for a decoded body. */
export function strictDecodingMessage(body: unknown, unknownFields: string[], duplicateFields: string[]): string {
  // Both lists are in document order, so the first MAX_STRICT_ERRORS of each hold the first of all problems.
  const unknown = unknownFields.slice(0, MAX_STRICT_ERRORS);
  const duplicates = outsideUnknown(duplicateFields, unknownFields).slice(0, MAX_STRICT_ERRORS);
  const positions = documentPositions(body, [...unknown, ...duplicates]);
  const problems = [
    ...unknown.map((path) => ({ path, text: `unknown field "${path}"` })),
    ...duplicates.map((path) => ({ path, text: `duplicate field "${path}"` })),
  ];
  const order = (path: string): number => positions.get(path) ?? Number.MAX_SAFE_INTEGER;
  problems.sort((a, b) => order(a.path) - order(b.path));
  const texts = [...new Set(problems.map((p) => p.text))].slice(0, MAX_STRICT_ERRORS);
  return `strict decoding error: ${texts.join(", ")}`;
}

/** kube's Strict 400, prefixed as its decoder does: `Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: ...`. */
export function newStrictDecodingError(
  kind: { kind: string; version: string },
  body: unknown,
  unknownFields: string[],
  duplicateFields: string[],
): StatusError {
  return newBadRequest(
    `${kind.kind} in version "${kind.version}" cannot be handled as a ${kind.kind}: ${
      strictDecodingMessage(body, unknownFields, duplicateFields)
    }`,
  );
}
