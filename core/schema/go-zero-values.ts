/**
 * The fields Go's encoding/json writes even when they are zero: a field without `omitempty` (a string as "", a
 * number as 0, a bool as false) and a struct-typed field whatever its tag, since encoding/json never finds a struct
 * empty. A metav1.Time or MicroTime struct writes itself as null when zero (Time.MarshalJSON), an IntOrString as 0
 * and a Quantity as "0", a RawExtension as null. kube answers every built-in object through those Go structs, so a
 * core/v1 Event always carries "source":{}, "firstTimestamp":null and "reportingComponent":"", a Service
 * "status":{"loadBalancer":{}}. kube's OpenAPI (openapi-gen's enforced defaults) marks exactly those fields with
 * their zero value as `default`, which the built-in schemas keep; non-zero defaults (a +default marker, such as a
 * port's protocol) belong to defaulting, not here. ObjectMeta is left as it is: its fields are the server's.
 */
import { builtInSchemas } from "./lookup.ts";
import type { Schema } from "./types.ts";

const OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
/** What a zero struct of these types writes (their MarshalJSON). */
const ZERO_OF_SPECIAL: Readonly<Record<string, unknown>> = {
  "io.k8s.apimachinery.pkg.apis.meta.v1.Time": null,
  "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime": null,
  "io.k8s.apimachinery.pkg.util.intstr.IntOrString": 0,
  "io.k8s.apimachinery.pkg.api.resource.Quantity": "0",
  "io.k8s.apimachinery.pkg.runtime.RawExtension": null,
};

/** One field of a struct: the zero value Go writes when it is absent (none: omitted), and the struct below it. */
interface FieldPlan {
  name: string;
  zero?: { value: unknown };
  /** The definition of the struct the field holds, or of each item (array) or value (map) it holds. */
  struct?: string;
  shape: "one" | "items" | "values";
}

const fieldPlans = new Map<string, FieldPlan[]>();
const plans = new Map<string, readonly FieldPlan[]>();

/** Every field of the struct that has a zero value or holds a struct (before pruning). */
function fieldPlansOf(definition: string): FieldPlan[] {
  let found = fieldPlans.get(definition);
  if (found) return found;
  found = [];
  fieldPlans.set(definition, found);
  for (const [name, field] of Object.entries(builtInSchemas.resolve(definition).properties ?? {})) {
    const fieldPlan = fieldPlanOf(name, field);
    if (fieldPlan) found.push(fieldPlan);
  }
  return found;
}

/** Whether a zero value can be missing anywhere below the struct (recursive types count once). */
function holdsZeros(definition: string, seen = new Set<string>()): boolean {
  if (seen.has(definition)) return false;
  seen.add(definition);
  return fieldPlansOf(definition).some((field) =>
    field.zero !== undefined || (field.struct !== undefined && holdsZeros(field.struct, seen))
  );
}

/** The fields a walk must visit: those with a zero value and those leading to one; a write walks only these. */
function planOf(definition: string): readonly FieldPlan[] {
  let plan = plans.get(definition);
  if (!plan) {
    plan = fieldPlansOf(definition).filter((field) => field.zero !== undefined || holdsZeros(field.struct!));
    plans.set(definition, plan);
  }
  return plan;
}

function fieldPlanOf(name: string, field: Schema): FieldPlan | undefined {
  const { schema, shape } = field.items
    ? { schema: field.items, shape: "items" as const }
    : typeof field.additionalProperties === "object"
    ? { schema: field.additionalProperties, shape: "values" as const }
    : { schema: field, shape: "one" as const };
  const ref = schema.ref;
  const struct = ref !== undefined && ref !== OBJECT_META && !(ref in ZERO_OF_SPECIAL) && hasStructFields(ref) ? ref : undefined;
  const zero = shape === "one" ? zeroOf(field) : undefined;
  if (!struct && !zero) return undefined;
  return { name, struct, shape, ...(zero ? { zero } : {}) };
}

function hasStructFields(definition: string): boolean {
  return builtInSchemas.resolve(definition).properties !== undefined;
}

/** The value Go writes for the field when it is zero; undefined when Go omits it (or the default is no zero value). */
function zeroOf(field: Schema): { value: unknown } | undefined {
  const value = field.default;
  if (value === undefined) return undefined;
  if (field.ref !== undefined) {
    if (field.ref in ZERO_OF_SPECIAL) return { value: ZERO_OF_SPECIAL[field.ref] };
    const empty = typeof value === "object" && value !== null && Object.keys(value).length === 0;
    return empty && field.ref !== OBJECT_META ? { value: {} } : undefined;
  }
  return value === "" || value === 0 || value === false ? { value } : undefined;
}

function fill(value: Record<string, unknown>, definition: string): void {
  for (const field of planOf(definition)) {
    let present = value[field.name];
    if (field.zero && (present === undefined || (present === null && field.struct))) {
      present = value[field.name] = structuredClone(field.zero.value);
    }
    if (!field.struct || present === null || typeof present !== "object") continue;
    if (field.shape === "one") fill(present as Record<string, unknown>, field.struct);
    else if (field.shape === "items" && Array.isArray(present)) {
      for (const item of present) if (item !== null && typeof item === "object") fill(item, field.struct);
    } else if (field.shape === "values") {
      for (const item of Object.values(present)) if (item !== null && typeof item === "object") fill(item, field.struct);
    }
  }
}

/**
 * Adds, in place, the zero-valued fields kube's JSON of a built-in object always has; an object of a kind that is
 * not built in (a custom resource) is left as it is.
 */
export function withGoZeroValues<T extends { apiVersion?: string; kind?: string }>(obj: T): T {
  const { apiVersion = "", kind = "" } = obj;
  const slash = apiVersion.indexOf("/");
  const definition = builtInSchemas.definitionNameFor(
    slash < 0 ? "" : apiVersion.slice(0, slash),
    slash < 0 ? apiVersion : apiVersion.slice(slash + 1),
    kind,
  );
  if (definition !== undefined) fill(obj as Record<string, unknown>, definition);
  return obj;
}
