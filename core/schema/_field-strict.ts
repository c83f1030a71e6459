/**
 * kube's Strict message: every unknown and duplicate field in one 400, in the order the decoder met them
 * in the document. A field both unknown and duplicated counts once, as unknown, as in kube.
 */
import { newBadRequest, type StatusError } from "../api/errors.ts";
import { MAX_STRICT_ERRORS } from "../api/decode-body.ts";
import { isPlainObject } from "../api/types.ts";

/** The position of every field path in a depth-first walk of `value`, in the format of the reported paths. */
function documentPositions(value: unknown): Map<string, number> {
  const positions = new Map<string, number>();
  const visit = (node: unknown, path: string): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => visit(item, `${path}[${i}]`));
    } else if (isPlainObject(node)) {
      for (const key of Object.keys(node)) {
        const childPath = path === "" ? key : `${path}.${key}`;
        positions.set(childPath, positions.size);
        visit(node[key], childPath);
      }
    }
  };
  visit(value, "");
  return positions;
}

const isWithin = (path: string, ancestor: string): boolean =>
  path === ancestor || path.startsWith(`${ancestor}.`) || path.startsWith(`${ancestor}[`);

/** `strict decoding error: unknown field "spec.x", duplicate field "metadata.name"` for a decoded body. */
export function strictDecodingMessage(body: unknown, unknownFields: string[], duplicateFields: string[]): string {
  const positions = documentPositions(body);
  const problems = [
    ...unknownFields.map((path) => ({ path, text: `unknown field "${path}"` })),
    ...duplicateFields
      .filter((path) => !unknownFields.some((unknown) => isWithin(path, unknown)))
      .map((path) => ({ path, text: `duplicate field "${path}"` })),
  ];
  const order = (path: string): number => positions.get(path) ?? Number.MAX_SAFE_INTEGER;
  problems.sort((a, b) => order(a.path) - order(b.path));
  const texts = [...new Set(problems.map((p) => p.text))].slice(0, MAX_STRICT_ERRORS);
  return `strict decoding error: ${texts.join(", ")}`;
}

/** kube's Strict 400, prefixed as its decoder does: `Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: ...`. */
export function newStrictDecodingError(kind: { kind: string; version: string }, body: unknown, unknownFields: string[], duplicateFields: string[]): StatusError {
  return newBadRequest(`${kind.kind} in version "${kind.version}" cannot be handled as a ${kind.kind}: ${strictDecodingMessage(body, unknownFields, duplicateFields)}`);
}
