/**
 * What @kubernetes/client-node's ObjectSerializer lets through silently: it keeps only the members its model
 * names, turns any string into a Date (an Invalid Date for a bad one) and never checks a type or a required
 * member. shapeProblems walks the raw JSON of an answer against the same model (its attributeTypeMap, and the
 * members its .d.ts declares without `?`) and names each member the typed object would lose or misstate.
 */
import * as clientNode from "@kubernetes/client-node";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

type Attribute = { baseName: string; type: string };
type Model = { getAttributeTypeMap(): Attribute[] };

const MODELS_DIR = join(dirname(fileURLToPath(import.meta.resolve("@kubernetes/client-node"))), "gen/models");
const exported = clientNode as unknown as Record<string, Model | undefined>;
const requireModel = createRequire(import.meta.url);

/** The model class: exported, or (for versions whose API class the client does not export) from its own file. */
function modelOf(type: string): Model | undefined {
  const file = join(MODELS_DIR, `${type}.js`);
  return exported[type] ?? (existsSync(file) ? requireModel(file)[type] : undefined);
}
const requiredMembers = new Map<string, Set<string>>();
/**
 * Members kube-apiserver 1.26 encodes that the client's newer models no longer have: NetworkPolicy's status
 * (NetworkPolicyStatus, a struct with omitempty, so Go always writes `{}`) left networking/v1 in 1.28.
 */
const RETIRED_MEMBERS: Record<string, string[]> = { V1NetworkPolicy: ["status"] };
// metav1.Time and MicroTime as Go's RFC3339 / RFC3339Micro encodings write them.
const GO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** The members a model's declaration marks required: `'name': Type;` rather than `'name'?: Type;`. */
function requiredOf(type: string): Set<string> {
  let required = requiredMembers.get(type);
  if (!required) {
    const declaration = readFileSync(join(MODELS_DIR, `${type}.d.ts`), "utf8");
    required = new Set([...declaration.matchAll(/^\s+'([^']+)': /gm)].map((match) => match[1]));
    requiredMembers.set(type, required);
  }
  return required;
}

function describe(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

/** Every member of `value` the client's `type` model would drop, mistype or miss, as `path: problem`. */
export function shapeProblems(value: unknown, type: string, path = ""): string[] {
  if (value === null || value === undefined || type === "any") return [];
  const mismatch = (expected: string) => [`${path || "."}: ${describe(value)} where the model has ${expected}`];
  if (type === "string" || type === "number" || type === "boolean") return describe(value) === type ? [] : mismatch(type);
  if (type === "IntOrString") return typeof value === "string" || typeof value === "number" ? [] : mismatch(type);
  // V1MicroTime has no model class: the client leaves the string as it came.
  if (type === "Date" || type === "V1MicroTime") {
    return typeof value === "string" && GO_TIME.test(value) ? [] : mismatch("an RFC 3339 time");
  }
  const array = /^Array<(.+)>$/.exec(type);
  if (array) return Array.isArray(value) ? value.flatMap((item, i) => shapeProblems(item, array[1], `${path}[${i}]`)) : mismatch(type);
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (typeof value !== "object" || Array.isArray(value)) return mismatch(type);
  const record = value as Record<string, unknown>;
  if (map) return Object.entries(record).flatMap(([key, item]) => shapeProblems(item, map[1], `${path}.${key}`));
  const model = modelOf(type);
  if (!model?.getAttributeTypeMap) return [`${path || "."}: the client has no model ${type}`];
  const attributes = new Map(model.getAttributeTypeMap().map((attribute) => [attribute.baseName, attribute.type]));
  const problems: string[] = [];
  for (const [key, item] of Object.entries(record)) {
    const memberType = attributes.get(key);
    if (memberType === undefined && RETIRED_MEMBERS[type]?.includes(key)) continue;
    if (memberType === undefined) problems.push(`${path}.${key}: not a member of ${type}`);
    else problems.push(...shapeProblems(item, memberType, `${path}.${key}`));
  }
  for (const key of requiredOf(type)) {
    if (record[key] === undefined || record[key] === null) {
      problems.push(`${path}.${key}: required by ${type}, but ${describe(record[key])}`);
    }
  }
  return problems;
}
