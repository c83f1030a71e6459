/**
 * kube's list continue token (k8s.io/apiserver pkg/storage/continue.go): base64url (no padding) of
 * `{"v":"meta.k8s.io/v1","rv":<revision>,"start":"<key after the collection prefix>"}`.
 * A token with rv -1 continues at the latest revision (handed out with the 410 below).
 */
import { newBadRequest, StatusError } from "./errors.ts";
import { Buffer } from "node:buffer";
import { readJSON } from "./_json-scan.ts";
import { isPlainObject, type Status } from "./types.ts";

export const INCONSISTENT_CONTINUE_MESSAGE =
  "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.";

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Go's json.Marshal escapes these inside strings; matching it keeps tokens byte-identical to kube's. */
function goJSONString(value: string): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function base64UrlDecode(text: string): Uint8Array {
  const clean: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\r" || ch === "\n") continue;
    const digit = BASE64URL.indexOf(ch);
    if (digit < 0) throw new Error(`illegal base64 data at input byte ${i}`);
    clean.push(digit);
  }
  if (clean.length % 4 === 1) throw new Error(`illegal base64 data at input byte ${text.length - 1}`);
  const bytes = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let out = 0;
  for (let i = 0; i < clean.length; i += 4) {
    const chunk = (clean[i] << 18) | (clean[i + 1] << 12) | ((clean[i + 2] ?? 0) << 6) | (clean[i + 3] ?? 0);
    bytes[out++] = chunk >> 16;
    if (i + 2 < clean.length) bytes[out++] = (chunk >> 8) & 0xff;
    if (i + 3 < clean.length) bytes[out++] = chunk & 0xff;
  }
  return bytes;
}

/**
 * The token for the chunk after `lastKey` (the last key returned) in a list read at `revision`.
 * Like kube it records the next possible key, `lastKey + "\x00"`, relative to the collection prefix.
 */
export function encodeContinue(lastKey: string, keyPrefix: string, revision: number): string {
  if (!lastKey.startsWith(keyPrefix)) throw new Error("unable to encode next field: the key and key prefix do not match");
  const json = `{"v":"meta.k8s.io/v1","rv":${revision},"start":${goJSONString(`${lastKey.slice(keyPrefix.length)}\x00`)}}`;
  return Buffer.from(json, "utf8").toString("base64url");
}

export interface ContinuePoint {
  /** Full storage key to resume at (inclusive). */
  startKey: string;
  /** The same point as an exclusive bound for Storage.range(); exact for every token this server issues. */
  startAfter: string;
  /** Revision of the first chunk; -1 means "continue at the latest revision". */
  revision: number;
}

function fieldTypeError(field: string, value: unknown, goType: string): Error {
  const jsonType = Array.isArray(value) ? "array" : value === null ? "null" : typeof value === "object" ? "object" : typeof value;
  const shown = jsonType === "number" ? `number ${value}` : jsonType;
  return new Error(`json: cannot unmarshal ${shown} into Go struct field continueToken.${field} of type ${goType}`);
}

interface TokenFields {
  version: string;
  revision: number;
  start: string;
}

function decodeFields(token: string): TokenFields {
  const text = new TextDecoder().decode(base64UrlDecode(token));
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = readJSON(text).value; // throws Go's wording for the syntax error
  }
  if (!isPlainObject(parsed)) {
    throw new Error(
      `json: cannot unmarshal ${Array.isArray(parsed) ? "array" : typeof parsed} into Go value of type storage.continueToken`,
    );
  }
  const { v, rv, start } = parsed;
  const absent = (value: unknown) => value === undefined || value === null;
  if (!absent(v) && typeof v !== "string") throw fieldTypeError("v", v, "string");
  if (!absent(rv) && !Number.isInteger(rv)) throw fieldTypeError("rv", rv, "int64");
  if (!absent(start) && typeof start !== "string") throw fieldTypeError("start", start, "string");
  return { version: (v as string | null) ?? "", revision: (rv as number | null) ?? 0, start: (start as string | null) ?? "" };
}

/** Decodes a client's token against the collection prefix; 400 `invalid continue token: ...` as kube answers. */
export function decodeContinue(token: string, keyPrefix: string): ContinuePoint {
  const fail = (detail: string) => newBadRequest(`invalid continue token: continue key is not valid${detail}`);
  let fields: TokenFields;
  try {
    fields = decodeFields(token);
  } catch (e) {
    throw fail(`: ${(e as Error).message}`);
  }
  const { version, revision, start } = fields;
  if (version !== "meta.k8s.io/v1") throw fail(`: server does not recognize this encoded version ${version}`);
  if (revision === 0) throw fail(": incorrect encoded start resourceVersion (version meta.k8s.io/v1)");
  if (start === "") throw fail(": encoded start key empty (version meta.k8s.io/v1)");
  // Refuse keys that path-clean to something else, so a token cannot range outside its collection.
  const key = start.startsWith("/") ? start : `/${start}`;
  if (cleanPath(key) !== key) throw fail(`: ${start}`);
  const startKey = keyPrefix + key.slice(1);
  return { startKey, startAfter: startKey.endsWith("\x00") ? startKey.slice(0, -1) : startKey, revision };
}

/** Go's path.Clean for an absolute path. */
function cleanPath(path: string): string {
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}

/** A 410 whose Status carries a continue token that resumes at the latest revision. */
export class ContinueExpiredError extends StatusError {
  readonly continueToken: string;

  constructor(continueToken: string) {
    super(410, "Expired", INCONSISTENT_CONTINUE_MESSAGE);
    this.continueToken = continueToken;
  }

  override toStatus(): Status {
    return { ...super.toStatus(), metadata: { continue: this.continueToken } };
  }
}

/** kube's answer when the token's revision has been compacted: 410 plus a token that goes on, inconsistently, after `lastKey`. */
export function newContinueExpired(lastKey: string, keyPrefix: string): ContinueExpiredError {
  return new ContinueExpiredError(encodeContinue(lastKey, keyPrefix, -1));
}
