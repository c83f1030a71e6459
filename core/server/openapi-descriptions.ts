/**
 * `--openapi-descriptions`: prose kubun does not carry, taken from a kube OpenAPI document the operator supplies
 * (v2 `definitions` or v3 `components.schemas`) and merged into the served /openapi/v2 and /openapi/v3 schemas by
 * definition name and field path, so `kubectl explain` has text to print.
 */
import { readFileSync } from "node:fs";
import { isPlainObject } from "../api/types.ts";
import type { Definitions, Schema } from "../schema/types.ts";

/** The descriptions of one schema and of the schemas nested in it. */
export interface DescriptionTree {
  description?: string;
  properties?: Record<string, DescriptionTree>;
  items?: DescriptionTree;
  additionalProperties?: DescriptionTree;
}

export type Descriptions = ReadonlyMap<string, DescriptionTree>;

function treeOf(schema: unknown): DescriptionTree | undefined {
  if (!isPlainObject(schema)) return undefined;
  const source = schema as Record<string, unknown>;
  const tree: DescriptionTree = {};
  if (typeof source.description === "string" && source.description !== "") tree.description = source.description;
  if (isPlainObject(source.properties)) {
    const properties = Object.entries(source.properties as Record<string, unknown>).flatMap(([name, field]) => {
      const child = treeOf(field);
      return child ? [[name, child] as const] : [];
    });
    if (properties.length > 0) tree.properties = Object.fromEntries(properties);
  }
  const items = treeOf(source.items);
  if (items) tree.items = items;
  const additional = treeOf(source.additionalProperties);
  if (additional) tree.additionalProperties = additional;
  return Object.keys(tree).length > 0 ? tree : undefined;
}

/** The description trees of a parsed OpenAPI v2 or v3 document; throws when it is neither. */
export function descriptionsOf(document: unknown): Map<string, DescriptionTree> {
  const doc = isPlainObject(document) ? document as Record<string, unknown> : {};
  const components = isPlainObject(doc.components) ? doc.components as Record<string, unknown> : {};
  const schemas = doc.definitions ?? components.schemas;
  if (!isPlainObject(schemas)) throw new Error("has neither definitions (OpenAPI v2) nor components.schemas (OpenAPI v3)");
  const result = new Map<string, DescriptionTree>();
  for (const [name, schema] of Object.entries(schemas as Record<string, unknown>)) {
    const tree = treeOf(schema);
    if (tree) result.set(name, tree);
  }
  return result;
}

/** Reads every file, later files adding the definitions earlier ones lack; the error names the file. */
export function loadDescriptions(files: readonly string[]): Descriptions {
  const merged = new Map<string, DescriptionTree>();
  for (const file of files) {
    let found: Map<string, DescriptionTree>;
    try {
      found = descriptionsOf(JSON.parse(readFileSync(file, "utf8")));
    } catch (error) {
      throw new Error(`--openapi-descriptions ${file}: ${(error as Error).message}`, { cause: error });
    }
    for (const [name, tree] of found) if (!merged.has(name)) merged.set(name, tree);
  }
  return merged;
}

/** `schema` with the tree's descriptions, each put first as kube's documents order them; its own win. */
export function describedSchema(schema: Schema, tree: DescriptionTree): Schema {
  const out: Record<string, unknown> = tree.description && !("description" in schema) ? { description: tree.description } : {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "properties" && tree.properties) {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, Schema>).map(([name, field]) => {
          const child = tree.properties![name];
          return [name, child ? describedSchema(field, child) : field];
        }),
      );
    } else if (key === "items" && tree.items) out.items = describedSchema(value as Schema, tree.items);
    else if (key === "additionalProperties" && tree.additionalProperties && isPlainObject(value)) {
      out.additionalProperties = describedSchema(value as Schema, tree.additionalProperties);
    } else out[key] = value;
  }
  return out as Schema;
}

/** Merges descriptions into definitions, remembering each result for the same schema object. */
export function definitionDescriber(descriptions: Descriptions): (definitions: Definitions) => Definitions {
  const cache = new WeakMap<Schema, Schema>();
  return (definitions) => {
    if (descriptions.size === 0) return definitions;
    const out: Record<string, Schema> = {};
    for (const [name, schema] of Object.entries(definitions)) {
      const tree = descriptions.get(name);
      if (!tree) {
        out[name] = schema;
        continue;
      }
      let described = cache.get(schema);
      if (!described) cache.set(schema, described = describedSchema(schema, tree));
      out[name] = described;
    }
    return out;
  };
}
