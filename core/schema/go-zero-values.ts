/**
 * What kube's JSON encoding (encoding/json over the Go types) writes for fields a request left out: a field whose
 * tag has no `omitempty`, or that is a non-pointer struct (where `omitempty` does nothing), is always written, as the
 * Go zero value. So a Deployment kube returns carries `status: {}`, its pod template `metadata.creationTimestamp:
 * null`, a DaemonSet's status `numberReady: 0`, a core Event `reportingComponent: ""`, and typed clients rely on it
 * (the Python client reads `deployment.status.replicas` off a just-created Deployment).
 *
 * kube-openapi's generator marks exactly these fields with a zero `default` (`{}`, `""`, `0`, `false`;
 * mustEnforceDefault in k8s.io/kube-openapi/pkg/generators/openapi.go), so the schemas say which fields they are.
 * Non-zero defaults ("TCP") are kube's defaulting functions' business, not the encoder's.
 */
import { isPlainObject, type KubeObject } from "../api/types.ts";
import { builtInSchemas, type SchemaLookup } from "./lookup.ts";
import type { Schema } from "./types.ts";

/**
 * Types whose zero value encodes as something other than `{}` through their MarshalJSON: metav1.Time and MicroTime
 * (`null`), runtime.RawExtension (`null`), resource.Quantity (`"0"`), intstr.IntOrString (`0`).
 */
const ENCODED_ZERO: Readonly<Record<string, unknown>> = {
  "io.k8s.apimachinery.pkg.apis.meta.v1.Time": null,
  "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime": null,
  "io.k8s.apimachinery.pkg.runtime.RawExtension": null,
  "io.k8s.apimachinery.pkg.api.resource.Quantity": "0",
  "io.k8s.apimachinery.pkg.util.intstr.IntOrString": 0,
};

/** What one object schema needs: the fields to write when absent, and the fields under which some may be missing. */
interface Plan {
  zeros: [field: string, property: Schema, zero: unknown][];
  nested: [field: string, property: Schema][];
}

const plans = new WeakMap<Schema, Plan>();
/** Schemas whose subtree holds an always-encoded field; a schema being decided (a recursive type) counts as one. */
const mayLackZeros = new WeakMap<Schema, boolean>();

function planOf(lookup: SchemaLookup, schema: Schema): Plan {
  const resolved = lookup.resolve(schema);
  let plan = plans.get(resolved);
  if (plan) return plan;
  plan = { zeros: [], nested: [] };
  for (const [field, property] of Object.entries(resolved.properties ?? {})) {
    const zero = zeroOf(property);
    if (zero !== undefined) plan.zeros.push([field, property, zero]);
    const inner = innerSchema(lookup, property);
    if (inner && holdsZeros(lookup, inner)) plan.nested.push([field, property]);
  }
  plans.set(resolved, plan);
  return plan;
}

/** The object schema a field's value (or each of its items or entries) has; none for scalars and opaque types. */
function innerSchema(lookup: SchemaLookup, property: Schema): Schema | undefined {
  if (property.ref && Object.hasOwn(ENCODED_ZERO, property.ref)) return undefined;
  const resolved = lookup.resolve(property);
  const inner = resolved.items ?? (resolved.properties ? resolved : resolved.additionalProperties);
  return isPlainObject(inner) ? lookup.resolve(inner as Schema) : undefined;
}

function holdsZeros(lookup: SchemaLookup, schema: Schema): boolean {
  const known = mayLackZeros.get(schema);
  if (known !== undefined) return known;
  mayLackZeros.set(schema, true);
  const properties = Object.values(schema.properties ?? {});
  const answer = properties.some((property) => zeroOf(property) !== undefined) ||
    properties.some((property) => {
      const inner = innerSchema(lookup, property);
      return inner !== undefined && holdsZeros(lookup, inner);
    }) ||
    (!schema.properties && isPlainObject(schema.additionalProperties) &&
      holdsZeros(lookup, lookup.resolve(schema.additionalProperties as Schema)));
  mayLackZeros.set(schema, answer);
  return answer;
}

/**
 * `obj` with the Go zero value of every always-encoded field it lacks (or holds as null), at every depth. `obj` is
 * never modified: the answer is `obj` itself when nothing is missing, otherwise a copy sharing the untouched parts.
 */
export function withGoZeroValuesOf(lookup: SchemaLookup, schema: Schema, obj: Record<string, unknown>): Record<string, unknown> {
  const { zeros, nested } = planOf(lookup, schema);
  let out = obj;
  const set = (field: string, value: unknown) => {
    if (out === obj) out = { ...obj };
    out[field] = value;
  };
  for (const [field, property, zero] of zeros) {
    const value = obj[field];
    if ((value === undefined || value === null) && !(value === null && zero === null)) {
      // A fresh {} per object: the zero struct is filled in turn and then belongs to this object.
      set(field, isPlainObject(zero) ? withGoZeroValuesOf(lookup, property, {}) : zero);
    }
  }
  for (const [field, property] of nested) {
    const value = out[field];
    if (value === undefined || value === null) continue;
    const filled = nestedWithZeroValues(lookup, property, value);
    if (filled !== value) set(field, filled);
  }
  return out;
}

/** `obj` with the Go zero values of the built-in kind its apiVersion and kind name; any other object as it is. */
export function withGoZeroValues(obj: KubeObject): KubeObject {
  const { apiVersion = "", kind = "" } = obj;
  const slash = apiVersion.indexOf("/");
  const schema = builtInSchemas.schemaForKind(slash < 0 ? "" : apiVersion.slice(0, slash), apiVersion.slice(slash + 1), kind);
  return schema ? withGoZeroValuesOf(builtInSchemas, schema, obj) as KubeObject : obj;
}

function nestedWithZeroValues(lookup: SchemaLookup, property: Schema, value: unknown): unknown {
  if (property.ref && Object.hasOwn(ENCODED_ZERO, property.ref)) return value;
  const resolved = lookup.resolve(property);
  if (Array.isArray(value)) {
    return resolved.items ? mapChanged(value, (item) => nestedWithZeroValues(lookup, resolved.items!, item)) : value;
  }
  if (!isPlainObject(value)) return value;
  if (resolved.properties) return withGoZeroValuesOf(lookup, resolved, value);
  const entries = resolved.additionalProperties;
  if (!isPlainObject(entries)) return value;
  const keys = Object.keys(value);
  const values = keys.map((key) => value[key]);
  const filled = mapChanged(values, (entry) => nestedWithZeroValues(lookup, entries, entry));
  return filled === values ? value : Object.fromEntries(keys.map((key, i) => [key, filled[i]]));
}

/** `items` mapped by `fill`; the same array when no item changed. */
function mapChanged(items: unknown[], fill: (item: unknown) => unknown): unknown[] {
  let out = items;
  items.forEach((item, i) => {
    const filled = fill(item);
    if (filled === item) return;
    if (out === items) out = [...items];
    out[i] = filled;
  });
  return out;
}

/** The encoded zero of a field the generator marked always-encoded; undefined for any other field. */
function zeroOf(property: Schema): unknown {
  const marked = property.default;
  if (property.ref && Object.hasOwn(ENCODED_ZERO, property.ref)) return isPlainObject(marked) ? ENCODED_ZERO[property.ref] : undefined;
  if (isPlainObject(marked)) return Object.keys(marked).length === 0 ? {} : undefined;
  return marked === "" || marked === 0 || marked === false ? marked : undefined;
}
