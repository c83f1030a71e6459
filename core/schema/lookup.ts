/** Finding schemas by definition name or by group/version/kind, and following refs while walking an object. */
import { BUILT_IN_DEFINITIONS, BUILT_IN_KINDS } from "./builtin.gen.ts";
import { kindKey } from "./kind-key.ts";
import type { Definitions, Schema } from "./types.ts";

export interface SchemaLookup {
  /** Every definition, by name. */
  readonly definitions: Definitions;
  definition(name: string): Schema | undefined;
  /** Name of the definition whose `x-kubernetes-group-version-kind` lists this kind. */
  definitionNameFor(group: string, version: string, kind: string): string | undefined;
  schemaForKind(group: string, version: string, kind: string): Schema | undefined;
  /**
   * The schema to read fields from: a name is looked up, a schema with `ref` is replaced by the
   * definition (its siblings, such as patch extensions, belong to the referring field), any other
   * schema is returned as it is. Throws on an unknown name: the generator guarantees refs resolve.
   */
  resolve(schemaOrName: Schema | string): Schema;
  /** The declared schema of `field` in an object schema (may carry `ref` plus field-level extensions; `resolve` it for its structure). */
  propertySchema(schema: Schema, field: string): Schema | undefined;
}

/**
 * A lookup over `definitions`; the kind index is `kinds` when given (so that it reads no definition), otherwise built
 * from every definition on first use.
 */
export function createSchemaLookup(definitions: Definitions, kinds?: ReadonlyMap<string, string>): SchemaLookup {
  let byKind: ReadonlyMap<string, string> | undefined = kinds;
  const kindIndex = (): ReadonlyMap<string, string> => {
    if (byKind) return byKind;
    const index = new Map<string, string>();
    byKind = index;
    for (const [name, schema] of Object.entries(definitions)) {
      for (const gvk of schema["x-kubernetes-group-version-kind"] ?? []) {
        index.set(kindKey(gvk.group, gvk.version, gvk.kind), name);
      }
    }
    return index;
  };
  const definition = (name: string): Schema | undefined => Object.hasOwn(definitions, name) ? definitions[name] : undefined;
  const resolve = (schemaOrName: Schema | string): Schema => {
    const name = typeof schemaOrName === "string" ? schemaOrName : schemaOrName.ref;
    if (name === undefined) return schemaOrName as Schema;
    const found = definition(name);
    if (!found) throw new Error(`unknown schema definition ${name}`);
    return found.ref ? resolve(found) : found;
  };
  const definitionNameFor = (group: string, version: string, kind: string): string | undefined =>
    kindIndex().get(kindKey(group, version, kind));
  return {
    definitions,
    definition,
    definitionNameFor,
    schemaForKind(group, version, kind) {
      const name = definitionNameFor(group, version, kind);
      return name === undefined ? undefined : definitions[name];
    },
    resolve,
    propertySchema(schema, field) {
      const properties = resolve(schema).properties;
      return properties && Object.hasOwn(properties, field) ? properties[field] : undefined;
    },
  };
}

/** The lookup over kube 1.26's built-in definitions. */
export const builtInSchemas: SchemaLookup = createSchemaLookup(BUILT_IN_DEFINITIONS, BUILT_IN_KINDS);
