/**
 * The schema lookup the server publishes (OpenAPI, kubectl explain): the built-in definitions plus the
 * definitions of the custom resources currently served, rebuilt when a CRD's schemas change.
 */
import { BUILT_IN_DEFINITIONS } from "../schema/builtin.gen.ts";
import { builtInSchemas, createSchemaLookup, type SchemaLookup } from "../schema/lookup.ts";
import type { Schema } from "../schema/types.ts";

export class CustomSchemas {
  #byOwner = new Map<string, Record<string, Schema>>();
  #current: SchemaLookup = builtInSchemas;

  /** A lookup that always answers from the current definitions. */
  readonly lookup: SchemaLookup;

  constructor() {
    const current = () => this.#current;
    this.lookup = {
      get definitions() {
        return current().definitions;
      },
      definition: (name) => this.#current.definition(name),
      definitionNameFor: (group, version, kind) => this.#current.definitionNameFor(group, version, kind),
      schemaForKind: (group, version, kind) => this.#current.schemaForKind(group, version, kind),
      resolve: (schemaOrName) => this.#current.resolve(schemaOrName),
      propertySchema: (schema, field) => this.#current.propertySchema(schema, field),
    };
  }

  /** Sets the definitions one CRD (named `owner`) contributes, replacing its previous ones. */
  set(owner: string, definitions: Record<string, Schema>): void {
    this.#byOwner.set(owner, definitions);
    this.#rebuild();
  }

  delete(owner: string): void {
    if (this.#byOwner.delete(owner)) this.#rebuild();
  }

  #rebuild(): void {
    this.#current = createSchemaLookup(Object.assign({}, BUILT_IN_DEFINITIONS, ...this.#byOwner.values()));
  }
}
