/**
 * Checks a written object against its kind's schema (spec 4.7): wrong JSON types are a 400 in kube's decoder
 * wording; fields the schema does not know are dropped and reported so the caller can warn or refuse by the
 * request's fieldValidation directive. JSON nulls are dropped too: Go decodes them to zero values.
 */
import { newBadRequest } from "../api/errors.ts";
import { isPlainObject, type KubeObject } from "../api/types.ts";
import type { ResourceType } from "../api/resource-type.ts";
import { builtInSchemas } from "./lookup.ts";
import { createFieldNodes, type FieldNode, type StructNode } from "./_field-nodes.ts";
import { describeJSON, scalarProblem, type ValueProblem, zeroValue } from "./_field-values.ts";
import { canonicalQuantity } from "../api/quantity.ts";
import { canonicalTime } from "./_field-time.ts";
import { unstructuredMessage } from "./_field-unstructured.ts";

export { newStrictDecodingError, strictDecodingMessage } from "./_field-strict.ts";
export { MAX_STRICT_ERRORS } from "../api/decode-body.ts";

/** A type error in a patched object, worded as kube's patch handler reports it (see checkFields' `patch` option). */
export class PatchTypeError extends Error {}

export interface FieldCheckOptions {
  /**
   * The object is the result of a patch: a type error is thrown as PatchTypeError for the caller to wrap, in the
   * words of runtime.DefaultUnstructuredConverter (strategic merge patch) or of the bare JSON decoder (JSON and
   * merge patch), instead of a 400 for a request body.
   */
  patch?: "strategic" | "json";
}

export interface FieldCheck {
  /** Paths of unknown fields that were dropped, e.g. "spec.foo", "spec.containers[0].bar". */
  unknownFields: string[];
}

const builtInNodes = createFieldNodes(builtInSchemas);

/** Where the walk is: the path kube prints for unknown fields, and Go's field path and struct for type errors. */
interface Walk {
  unknownFields: string[];
  /** Go's field stack: JSON names of struct fields only (no list indexes, no map keys). */
  goFields: string[];
  structName: string;
  /** `Deployment in version "v1" cannot be handled as a Deployment: ` */
  errorPrefix: string;
  patch?: FieldCheckOptions["patch"];
}

function fail(walk: Walk, problem: ValueProblem, value: unknown, node: FieldNode): never {
  const converterMessage = walk.patch === "strategic" ? unstructuredMessage(value, node, problem) : undefined;
  if (converterMessage !== undefined) throw new PatchTypeError(converterMessage);
  const goField = `${walk.structName}.${walk.goFields.join(".")}`;
  const message = "message" in problem
    ? problem.message
    : `json: cannot unmarshal ${problem.jsonValue} into Go struct field ${goField} of type ${problem.goType}`;
  if (walk.patch) throw new PatchTypeError(message);
  throw newBadRequest(walk.errorPrefix + message);
}

function checkStruct(obj: Record<string, unknown>, node: StructNode, path: string, walk: Walk): void {
  const fields = builtInNodes.fieldsOf(node);
  const outerStruct = walk.structName;
  for (const key of Object.keys(obj)) {
    const child = fields.get(key);
    const childPath = path === "" ? key : `${path}.${key}`;
    if (!child) {
      if (node.keepsUnknown) continue;
      walk.unknownFields.push(childPath);
      delete obj[key];
      continue;
    }
    // Null decodes to Go's zero value; undefined (set by in-process code) never reaches JSON at all.
    if (obj[key] === null || obj[key] === undefined) {
      delete obj[key];
      continue;
    }
    walk.goFields.push(key);
    walk.structName = node.name;
    obj[key] = checkValue(obj[key], child, childPath, walk);
    walk.goFields.pop();
  }
  walk.structName = outerStruct;
}

/**
 * Checks a non-null value and answers it as kube stores it (quantities in canonical form, timestamps as their
 * MarshalJSON writes them); a null inside a list or map becomes Go's zero value.
 */
function checkValue(value: unknown, node: FieldNode, path: string, walk: Walk): unknown {
  switch (node.kind) {
    case "struct":
      if (!isPlainObject(value)) fail(walk, { jsonValue: describeJSON(value), goType: node.goType }, value, node);
      checkStruct(value, node, path, walk);
      return value;
    case "map":
      if (!isPlainObject(value)) fail(walk, { jsonValue: describeJSON(value), goType: node.goType }, value, node);
      for (const key of Object.keys(value)) {
        if (value[key] === undefined) delete value[key];
        else if (value[key] === null) value[key] = zeroValue(node.value);
        else value[key] = checkValue(value[key], node.value, `${path}.${key}`, walk);
      }
      return value;
    case "array":
      if (!Array.isArray(value)) fail(walk, { jsonValue: describeJSON(value), goType: node.goType }, value, node);
      for (let i = 0; i < value.length; i++) {
        if (value[i] === null || value[i] === undefined) value[i] = zeroValue(node.item);
        else value[i] = checkValue(value[i], node.item, `${path}[${i}]`, walk);
      }
      return value;
    default: {
      const problem = scalarProblem(value, node);
      if (problem) fail(walk, problem, value, node);
      if (node.kind === "quantity") return canonicalQuantity(typeof value === "bigint" ? String(value) : value as string | number) ?? value;
      // A float64 holds what Go's float64 holds: a huge integer rounds.
      if (node.kind === "scalar" && node.goType === "float64" && typeof value === "bigint") return Number(value);
      if (node.kind === "time") return canonicalTime(node.layout, value as string);
      return value;
    }
  }
}

/** A kind's root struct and its decoder's error prefix, found once per resource type (null: no built-in schema). */
const kinds = new WeakMap<ResourceType, { root: StructNode; errorPrefix: string } | null>();

function kindOf(type: ResourceType): { root: StructNode; errorPrefix: string } | null {
  let kind = kinds.get(type);
  if (kind === undefined) {
    const root = builtInNodes.forKind(type.group, type.version, type.kind);
    kind = root ? { root, errorPrefix: `${type.kind} in version "${type.version}" cannot be handled as a ${type.kind}: ` } : null;
    kinds.set(type, kind);
  }
  return kind;
}

/** Drops unknown fields from `obj` in place; throws for a value of the wrong type (a 400 StatusError by default). */
export function checkFields(type: ResourceType, obj: KubeObject, options: FieldCheckOptions = {}): FieldCheck {
  const kind = kindOf(type);
  if (!kind) return { unknownFields: [] };
  const { root, errorPrefix } = kind;
  const walk: Walk = { unknownFields: [], goFields: [], structName: root.name, errorPrefix, patch: options.patch };
  checkStruct(obj as unknown as Record<string, unknown>, root, "", walk);
  return { unknownFields: walk.unknownFields };
}
