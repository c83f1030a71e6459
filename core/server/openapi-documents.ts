/** Which OpenAPI documents the catalog yields, and the operations and definitions behind each. */
import type { Catalog } from "../registry/catalog.ts";
import type { SchemaLookup } from "../schema/lookup.ts";
import type { Definitions, Schema } from "../schema/types.ts";
import { META, OBJECT_MEDIA_TYPES, type Operation, type PathOperations } from "./openapi-model.ts";
import { groupIdentifier, groupTag, groupVersionTag } from "./openapi-naming.ts";
import { groupVersionOperations } from "./openapi-operations.ts";

export interface DocumentSource {
  paths: PathOperations;
  definitions: Definitions;
}

function discoveryOperation(operationId: string, tag: string, ref: string): Operation {
  return {
    method: "get",
    operationId,
    tag,
    parameters: [],
    responses: [{ code: "200", payload: { ref }, mediaTypes: OBJECT_MEDIA_TYPES }, { code: "401", mediaTypes: [] }],
  };
}

/** The /openapi/v3 keys, sorted: "api", "api/v1", "apis", "apis/<group>", "apis/<group>/<version>". */
export function documentKeys(catalog: Catalog): string[] {
  const keys = new Set<string>();
  for (const type of catalog.all()) {
    if (type.group === "") {
      keys.add("api").add(`api/${type.version}`);
    } else {
      keys.add("apis").add(`apis/${type.group}`).add(`apis/${type.group}/${type.version}`);
    }
  }
  return [...keys].sort();
}

/** "stable.example.com" → "com.example.stable", kube's prefix for custom resource definitions. */
function reversedGroup(group: string): string {
  return group.split(".").reverse().join(".");
}

/** Schemas for kinds the lookup lacks (custom resources without a known schema): any object, with its GVK. */
function placeholderSchema(group: string, version: string, kind: string, itemName?: string): Schema {
  const gvk = [{ group, kind, version }];
  if (!itemName) return { type: "object", "x-kubernetes-preserve-unknown-fields": true, "x-kubernetes-group-version-kind": gvk };
  return {
    type: "object",
    properties: {
      apiVersion: { type: "string" },
      items: { type: "array", items: { ref: itemName } },
      kind: { type: "string" },
      metadata: { ref: META + "ListMeta", default: {} },
    },
    required: ["items"],
    "x-kubernetes-group-version-kind": gvk,
  };
}

function groupVersionSource(catalog: Catalog, lookup: SchemaLookup, group: string, version: string): DocumentSource {
  const placeholders: Record<string, Schema> = {};
  const types = catalog.resources(group, version);
  const listOf = new Map(types.map((type) => [type.listKind, type.kind]));
  const definitionName = (g: string, v: string, kind: string): string => {
    const known = lookup.definitionNameFor(g, v, kind);
    if (known) return known;
    const name = `${reversedGroup(g)}.${v}.${kind}`;
    const itemKind = listOf.get(kind);
    placeholders[name] ??= placeholderSchema(g, v, kind, itemKind && definitionName(g, v, itemKind));
    return name;
  };
  const root = group === "" ? `/api/${version}/` : `/apis/${group}/${version}/`;
  const resourcesId = `get${groupIdentifier(group)}${version.charAt(0).toUpperCase()}${version.slice(1)}APIResources`;
  const paths: PathOperations = new Map([[
    root,
    [discoveryOperation(resourcesId, groupVersionTag(group, version), META + "APIResourceList")],
  ]]);
  const operations = groupVersionOperations(group, version, {
    types,
    definitionName,
    builtIn: (type) => catalog.isBuiltIn(type),
  });
  for (const [route, entries] of operations) paths.set(route, entries);
  const definitions = Object.keys(placeholders).length === 0 ? lookup.definitions : { ...lookup.definitions, ...placeholders };
  return { paths, definitions };
}

/** The operations and definitions of one /openapi/v3 key, or undefined for a key the catalog does not serve. */
export function documentSource(catalog: Catalog, lookup: SchemaLookup, key: string): DocumentSource | undefined {
  if (!documentKeys(catalog).includes(key)) return undefined;
  const parts = key.split("/");
  const single = (route: string, operation: Operation): DocumentSource => ({
    paths: new Map([[route, [operation]]]),
    definitions: lookup.definitions,
  });
  if (key === "api") return single("/api/", discoveryOperation("getCoreAPIVersions", "core", META + "APIVersions"));
  if (key === "apis") return single("/apis/", discoveryOperation("getAPIVersions", "apis", META + "APIGroupList"));
  if (parts[0] === "apis" && parts.length === 2) {
    const operation = discoveryOperation(`get${groupIdentifier(parts[1])}APIGroup`, groupTag(parts[1]), META + "APIGroup");
    return single(`/apis/${parts[1]}/`, operation);
  }
  return parts[0] === "api" ? groupVersionSource(catalog, lookup, "", parts[1]) : groupVersionSource(catalog, lookup, parts[1], parts[2]);
}

/** Every served path with the definitions they need: the content of /openapi/v2. */
export function combinedSource(catalog: Catalog, lookup: SchemaLookup): DocumentSource {
  const paths: PathOperations = new Map();
  let definitions: Definitions = lookup.definitions;
  for (const key of documentKeys(catalog)) {
    const source = documentSource(catalog, lookup, key)!;
    for (const [route, operations] of source.paths) paths.set(route, operations);
    if (source.definitions !== lookup.definitions) definitions = { ...definitions, ...source.definitions };
  }
  return { paths, definitions };
}
