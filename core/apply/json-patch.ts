/**
 * JSON patch (RFC 6902) over plain JSON values, with the behaviour of evanphx/json-patch v4 that
 * kube-apiserver uses: negative array indices count from the end, `-` appends, replacing or removing a
 * missing member fails, a `test` against a missing member passes only for null. `copy` operations may add at
 * most 3 MiB in all (kube-apiserver arms json-patch's AccumulatedCopySizeLimit from JSONPatchMaxCopyBytes,
 * CVE-2019-1002100), so a short patch cannot grow an object without bound.
 */
import { Buffer } from "node:buffer";
import { isPlainObject } from "../api/types.ts";
import { setMember } from "../api/json-member.ts";

export interface JsonPatchOperation {
  op: string;
  path?: unknown;
  from?: unknown;
  value?: unknown;
}

/** Why an operation could not be applied; the server answers these with 422. */
export class JsonPatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JsonPatchError";
  }
}

type Container = Record<string, unknown> | unknown[];

/** Splits a JSON pointer into unescaped tokens ("~1" is "/", "~0" is "~"). */
export function parsePointer(pointer: unknown): string[] {
  if (typeof pointer !== "string") throw new JsonPatchError("operation missing path");
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) throw new JsonPatchError(`invalid JSON pointer: ${pointer}`);
  return pointer.slice(1).split("/").map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** kube-apiserver's default JSONPatchMaxCopyBytes (k8s.io/apiserver server.NewConfig). */
export const MAX_ACCUMULATED_COPY_BYTES = 3 * 1024 * 1024;

/** Applies `operations` in order to a copy of `document`; throws JsonPatchError on the first failing one. */
export function applyJsonPatch(
  document: unknown,
  operations: readonly JsonPatchOperation[],
  maxCopyBytes = MAX_ACCUMULATED_COPY_BYTES,
): unknown {
  let doc = structuredClone(document);
  const copied = { bytes: 0, limit: maxCopyBytes };
  for (const operation of operations) {
    if (!isPlainObject(operation)) throw new JsonPatchError("operation must be an object");
    doc = applyOperation(doc, operation, copied);
  }
  return doc;
}

/**
 * json-patch v4's copy: the copied value's JSON size counts against the limit before the copy is made
 * (Patch.copy / AccumulatedCopySizeError).
 */
function copyValue(value: unknown, copied: { bytes: number; limit: number }): unknown {
  copied.bytes += Buffer.byteLength(JSON.stringify(value) ?? "null");
  if (copied.bytes > copied.limit) {
    throw new JsonPatchError(
      `Unable to complete the copy, the accumulated size increase of copy is ${copied.bytes}, exceeding the limit ${copied.limit}`,
    );
  }
  return structuredClone(value);
}

function applyOperation(doc: unknown, operation: JsonPatchOperation, copied: { bytes: number; limit: number }): unknown {
  switch (operation.op) {
    case "add":
      return add(doc, parsePointer(operation.path), requireValue(operation));
    case "remove":
      return remove(doc, parsePointer(operation.path)).doc;
    case "replace":
      return replace(doc, parsePointer(operation.path), requireValue(operation));
    case "move": {
      const from = parsePointer(operation.from);
      const taken = remove(doc, from);
      return add(taken.doc, parsePointer(operation.path), taken.value);
    }
    case "copy":
      return add(doc, parsePointer(operation.path), copyValue(get(doc, parsePointer(operation.from)), copied));
    case "test":
      return testValue(doc, parsePointer(operation.path), operation.value ?? null);
    default:
      throw new JsonPatchError(`Unexpected kind: ${String(operation.op)}`);
  }
}

function requireValue(operation: JsonPatchOperation): unknown {
  if (!("value" in operation)) throw new JsonPatchError(`${operation.op} operation missing value`);
  return structuredClone(operation.value);
}

/** The container holding the last token, and that token. */
function parentOf(doc: unknown, tokens: string[], op: string): { parent: Container; key: string } {
  let node = doc;
  for (const token of tokens.slice(0, -1)) {
    const child = childOf(node, token);
    if (child === undefined) throw new JsonPatchError(`${op} operation does not apply: doc is missing path: "/${tokens.join("/")}"`);
    node = child;
  }
  if (!isPlainObject(node) && !Array.isArray(node)) {
    throw new JsonPatchError(`${op} operation does not apply: doc is missing path: "/${tokens.join("/")}"`);
  }
  return { parent: node, key: tokens[tokens.length - 1] };
}

function childOf(node: unknown, token: string): unknown {
  if (isPlainObject(node)) return Object.hasOwn(node, token) ? node[token] : undefined;
  if (Array.isArray(node)) {
    const index = arrayIndex(token, node.length, false);
    return node[index];
  }
  return undefined;
}

/** An array index as json-patch v4 reads it; `forInsert` allows the position just past the end. */
function arrayIndex(token: string, length: number, forInsert: boolean): number {
  if (!/^-?\d+$/.test(token)) throw new JsonPatchError(`Unable to access invalid index: ${token}`);
  let index = Number(token);
  const limit = forInsert ? length : length - 1;
  if (index < 0) {
    if (-index > length) throw new JsonPatchError(`Unable to access invalid index: ${token}`);
    index += length;
  }
  if (index > limit) throw new JsonPatchError(`Unable to access invalid index: ${token}`);
  return index;
}

function get(doc: unknown, tokens: string[]): unknown {
  let node = doc;
  for (const token of tokens) {
    node = childOf(node, token);
    if (node === undefined) throw new JsonPatchError(`Unable to get nonexistent key: /${tokens.join("/")}: missing value`);
  }
  return node;
}

function add(doc: unknown, tokens: string[], value: unknown): unknown {
  if (tokens.length === 0) return value;
  const { parent, key } = parentOf(doc, tokens, "add");
  if (Array.isArray(parent)) {
    const index = key === "-" ? parent.length : arrayIndex(key, parent.length, true);
    parent.splice(index, 0, value);
  } else {
    setMember(parent, key, value);
  }
  return doc;
}

function remove(doc: unknown, tokens: string[]): { doc: unknown; value: unknown } {
  if (tokens.length === 0) throw new JsonPatchError('remove operation does not apply: doc is missing path: ""');
  const { parent, key } = parentOf(doc, tokens, "remove");
  if (Array.isArray(parent)) {
    const index = arrayIndex(key, parent.length, false);
    const [value] = parent.splice(index, 1);
    return { doc, value };
  }
  if (!Object.hasOwn(parent, key)) throw new JsonPatchError(`Unable to remove nonexistent key: ${key}: missing value`);
  const value = parent[key];
  delete parent[key];
  return { doc, value };
}

function replace(doc: unknown, tokens: string[], value: unknown): unknown {
  if (tokens.length === 0) return value;
  const { parent, key } = parentOf(doc, tokens, "replace");
  if (Array.isArray(parent)) {
    parent[arrayIndex(key, parent.length, false)] = value;
  } else {
    if (!Object.hasOwn(parent, key)) {
      throw new JsonPatchError(`replace operation does not apply: doc is missing key: /${tokens.join("/")}: missing value`);
    }
    setMember(parent, key, value);
  }
  return doc;
}

function testValue(doc: unknown, tokens: string[], expected: unknown): unknown {
  let actual: unknown;
  try {
    actual = tokens.length === 0 ? doc : childOf(parentOf(doc, tokens, "test").parent, tokens[tokens.length - 1]);
  } catch {
    actual = undefined;
  }
  if (!jsonEqual(actual ?? null, expected)) throw new JsonPatchError(`testing value /${tokens.join("/")} failed: test failed`);
  return doc;
}

/** Structural equality of JSON values: object member order does not matter, and an undefined member is no member. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    let members = 0;
    for (const key in a) {
      if (a[key] === undefined) continue;
      if (!Object.hasOwn(b, key) || !jsonEqual(a[key], b[key])) return false;
      members++;
    }
    for (const key in b) if (b[key] !== undefined) members--;
    return members === 0;
  }
  return false;
}
