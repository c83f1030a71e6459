/**
 * Request bodies by Content-Type: the JSON family (json, merge-patch, json-patch, strategic-merge-patch)
 * and the YAML family (yaml, apply-patch+yaml). Duplicate object keys are kept (last wins, as in kube)
 * and reported by field path so `fieldValidation` can warn about or reject them.
 */
import { newBadRequest, newUnsupportedMediaType } from "./errors.ts";
import { goCannotUnmarshal } from "./go-values.ts";
import { isPlainObject } from "./types.ts";
import { countParsedMembers, findDuplicateFields, JSONSyntaxError, MAX_NESTING_DEPTH, readJSON, scanWritten } from "./_json-scan.ts";
import { mayHoldInexactInteger } from "./exact-integers.ts";
import { readYAML, YAMLBodyError } from "./_yaml-read.ts";

export { MAX_STRICT_ERRORS } from "./_json-scan.ts";

/** What create and update accept for built-in kinds (kube's NegotiateInputSerializer list). */
export const WRITE_MEDIA_TYPES = ["application/json", "application/yaml", "application/vnd.kubernetes.protobuf"] as const;
/** What patch accepts for built-in kinds. */
export const PATCH_MEDIA_TYPES = [
  "application/json-patch+json",
  "application/merge-patch+json",
  "application/strategic-merge-patch+json",
  "application/apply-patch+yaml",
] as const;

/** Custom resources have no strategic merge patch. */
export const CUSTOM_RESOURCE_PATCH_MEDIA_TYPES = [
  "application/json-patch+json",
  "application/merge-patch+json",
  "application/apply-patch+yaml",
] as const;

const JSON_TYPES = new Set([
  "application/json",
  "application/merge-patch+json",
  "application/json-patch+json",
  "application/strategic-merge-patch+json",
]);
const YAML_TYPES = new Set(["application/yaml", "application/apply-patch+yaml"]);

export interface DecodedBody {
  mediaType: string;
  value: unknown;
  /** Paths of keys that appeared more than once, e.g. "metadata.name", "spec.containers[0].image". */
  duplicateFields: string[];
}

export interface DecodeOptions {
  /** The media types the verb accepts; anything else is a 415 listing them. */
  accepted: readonly string[];
  /**
   * The kind a create/update expects; when given, the body is decoded as kube's serializer decodes an object of it
   * (decodeObject): errors read like its decoder's errors for that kind.
   */
  kind?: string;
  /** The error a JSON or YAML syntax error becomes, from Go's wording of it (a patch's decoder words it its own way). */
  syntaxError?: (goMessage: string) => Error;
}

/** A leading BOM stays in the text (ignoreBOM); one decoder serves every body, as decode() without `stream` keeps no state. */
const UTF8 = new TextDecoder("utf-8", { ignoreBOM: true });

/** The bare media type, lower case, without parameters; an absent header means JSON as in kube. */
export function mediaTypeOf(contentType: string | null | undefined): string {
  const bare = (contentType ?? "").split(";")[0].trim().toLowerCase();
  return bare === "" ? "application/json" : bare;
}

/** kube's summarizeData: the start of the body, as text when it looks like an object, else hex. */
function summarize(body: Uint8Array): string {
  if (body.length === 0) return "<empty>";
  const head = body.subarray(0, 30);
  const more = body.length > 30 ? " ..." : "";
  if (body[0] === 0x7b) return new TextDecoder().decode(head) + more;
  return [...head].map((b) => b.toString(16).padStart(2, "0")).join("") + more;
}

async function decodeJSON(text: string): Promise<{ value: unknown; duplicateFields: string[] }> {
  // The scan takes turns and goes first: JSON.parse of a body nested past kube's limit would hold the event loop for
  // all its levels (~230 ms for 1.5 million), where the Go-worded reader fails at the first level past the limit.
  const written = await scanWritten(text);
  if (written.depth > MAX_NESTING_DEPTH) return { ...readJSON(text), duplicateFields: [] };
  let value: unknown;
  if (mayHoldInexactInteger(text)) {
    // JSON.parse would round integers beyond 2^53; the reader keeps them exact (and fails with Go's wording).
    value = readJSON(text).value;
  } else {
    try {
      value = JSON.parse(text);
    } catch {
      return { ...readJSON(text), duplicateFields: [] }; // throws with Go's wording
    }
  }
  // Fewer members after parsing than written means a repeated key; only then are the keys looked at.
  if (written.members === countParsedMembers(value)) return { value, duplicateFields: [] };
  return { value, duplicateFields: await findDuplicateFields(text) };
}

/** SimpleMetaFactory.Interpret's error for JSON that does not unmarshal into its apiVersion/kind struct. */
export function interpretError(value: unknown): string {
  const typeMeta = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
  return `couldn't get version/kind; json parse error: ${goCannotUnmarshal(value, typeMeta)}`;
}

/** transformDecodeError for a body whose apiVersion and kind could not be read. */
function unrecognized(kind: string, reason: string, body: Uint8Array) {
  return newBadRequest(`the object provided is unrecognized (must be of type ${kind}): ${reason} (${summarize(body)})`);
}

/**
 * A custom resource body without `kind`: json.Serializer.Decode into an Unstructured reads the kind from the data
 * alone (runtime.NewMissingKindErr), worded by the handlers' transformDecodeError. The strict serializer
 * (fieldValidation Warn, Strict) replaces the object's content and so reports no kind of its own; the lenient one
 * fails inside Unstructured.UnmarshalJSON and keeps the endpoint's kind and the body's version as the default.
 */
export function newMissingKindError(expected: { kind: string; version: string }, body: Uint8Array, strict: boolean): Error {
  const reason = `Object 'Kind' is missing in '${new TextDecoder().decode(body)}'`;
  if (strict) return unrecognized(expected.kind, reason, body);
  return newBadRequest(`${expected.kind} in version "${expected.version}" cannot be handled as a ${expected.kind}: ${reason}`);
}

/**
 * What kube's serializer makes of a decoded value when it expects an object of `kind`: Interpret reads JSON null as
 * an object without apiVersion and kind (the endpoint's fill them) and unmarshalling null leaves the object empty;
 * any other value that is not an object has no apiVersion/kind to read.
 */
function decodeObject(value: unknown, kind: string, body: Uint8Array): Record<string, unknown> {
  if (value === null) return {};
  if (!isPlainObject(value)) throw unrecognized(kind, interpretError(value), body);
  return value;
}

/**
 * Decodes a body by its Content-Type. 415 for a type the verb does not accept, 400 for an empty or
 * malformed body. Protobuf is not decoded here: route it to the protobuf codec before calling this.
 * A YAML body without a document (blank, or comments only) is null, as sigs.k8s.io/yaml's YAMLToJSON makes it.
 */
export async function decodeBody(
  body: Uint8Array,
  contentType: string | null | undefined,
  options: DecodeOptions & { kind: string },
): Promise<DecodedBody & { value: Record<string, unknown> }>;
export async function decodeBody(body: Uint8Array, contentType: string | null | undefined, options: DecodeOptions): Promise<DecodedBody>;
export async function decodeBody(
  body: Uint8Array,
  contentType: string | null | undefined,
  options: DecodeOptions,
): Promise<DecodedBody> {
  const mediaType = mediaTypeOf(contentType);
  if (!options.accepted.includes(mediaType) || (!JSON_TYPES.has(mediaType) && !YAML_TYPES.has(mediaType))) {
    throw newUnsupportedMediaType([...options.accepted]);
  }
  const text = UTF8.decode(body);
  let decoded: { value: unknown; duplicateFields: string[] };
  try {
    decoded = JSON_TYPES.has(mediaType) ? await decodeJSON(text) : readYAML(text);
  } catch (e) {
    let reason: string;
    if ((e instanceof JSONSyntaxError || e instanceof YAMLBodyError) && options.syntaxError) throw options.syntaxError(e.message);
    if (e instanceof JSONSyntaxError) reason = `couldn't get version/kind; json parse error: ${e.message}`;
    else if (e instanceof YAMLBodyError) reason = e.message;
    else throw e;
    if (!options.kind) throw newBadRequest(reason);
    throw unrecognized(options.kind, reason, body);
  }
  if (options.kind === undefined) return { mediaType, ...decoded };
  return { mediaType, value: decodeObject(decoded.value, options.kind, body), duplicateFields: decoded.duplicateFields };
}
