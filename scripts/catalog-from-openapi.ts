/** Derives resource types (scope, kind, verbs, subresources) from the paths of an OpenAPI v2 document. */
import type { ResourceType, SubresourceType } from "../core/api/resource-type.ts";

interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

interface Operation {
  "x-kubernetes-action"?: string;
  "x-kubernetes-group-version-kind"?: GroupVersionKind;
  responses?: Record<string, { schema?: { $ref?: string } }>;
}

export interface OpenAPIv2 {
  paths: Record<string, Record<string, Operation | unknown>>;
}

/** What the paths say about one resource (or subresource) of one group/version. */
interface PathFacts {
  namespaced: boolean;
  verbs: Set<string>;
  gvk?: GroupVersionKind;
  /** DELETE of one object answers the object, not a Status (kube's ReturnDeletedObject, seen by its OpenAPI installer). */
  deleteReturnsObject?: boolean;
}

const STATUS_REF = "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Status";

const ACTION_VERBS: Record<string, string> = {
  get: "get",
  list: "list",
  watch: "watch",
  watchlist: "watch",
  post: "create",
  put: "update",
  patch: "patch",
  delete: "delete",
  deletecollection: "deletecollection",
};

// Connect operations are listed in discovery by HTTP method (kube skips HEAD and OPTIONS).
const CONNECT_METHOD_VERBS: Record<string, string> = {
  get: "get",
  post: "create",
  put: "update",
  patch: "patch",
  delete: "delete",
};

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch"]);

/** Splits "/api/v1/..." or "/apis/<g>/<v>/..." into group/version and the segments after it. */
function splitPath(path: string): { groupVersion: string; rest: string[] } | undefined {
  const segments = path.split("/").filter((segment) => segment !== "");
  if (segments[0] === "api" && segments.length > 2) {
    return { groupVersion: segments[1], rest: segments.slice(2) };
  }
  if (segments[0] === "apis" && segments.length > 3) {
    return { groupVersion: `${segments[1]}/${segments[2]}`, rest: segments.slice(3) };
  }
  return undefined;
}

/** "pods" or "pods/status" plus scope, or undefined for paths that are not about a resource. */
function resourceOfPath(rest: string[]): { name: string; namespaced: boolean } | undefined {
  let segments = rest[0] === "watch" ? rest.slice(1) : rest;
  let namespaced = false;
  if (segments[0] === "namespaces" && segments[1] === "{namespace}" && segments.length > 2) {
    namespaced = true;
    segments = segments.slice(2);
  }
  if (segments.length === 0 || segments.length > 4) return undefined;
  if (segments.length >= 3 && segments[1] === "{name}") {
    return { name: `${segments[0]}/${segments[2]}`, namespaced };
  }
  return { name: segments[0], namespaced };
}

function verbOf(method: string, action: string): string | undefined {
  return action === "connect" ? CONNECT_METHOD_VERBS[method] : ACTION_VERBS[action];
}

/** groupVersion → resource or "resource/subresource" → facts gathered over all paths. */
function collectPathFacts(document: OpenAPIv2): Map<string, Map<string, PathFacts>> {
  const byGroupVersion = new Map<string, Map<string, PathFacts>>();
  for (const [path, operations] of Object.entries(document.paths)) {
    const split = splitPath(path);
    const resource = split && resourceOfPath(split.rest);
    if (!split || !resource) continue;
    const resources = byGroupVersion.get(split.groupVersion) ?? new Map<string, PathFacts>();
    byGroupVersion.set(split.groupVersion, resources);
    const facts = resources.get(resource.name) ?? { namespaced: false, verbs: new Set<string>() };
    resources.set(resource.name, facts);
    facts.namespaced ||= resource.namespaced;
    for (const [method, value] of Object.entries(operations)) {
      if (!HTTP_METHODS.has(method)) continue;
      const operation = value as Operation;
      const verb = verbOf(method, operation["x-kubernetes-action"] ?? "");
      if (verb) facts.verbs.add(verb);
      facts.gvk ??= operation["x-kubernetes-group-version-kind"];
      if (operation["x-kubernetes-action"] === "delete") {
        facts.deleteReturnsObject = operation.responses?.["200"]?.schema?.$ref !== STATUS_REF;
      }
    }
  }
  return byGroupVersion;
}

function subresourceType(name: string, facts: PathFacts, parent: GroupVersionKind): SubresourceType {
  const gvk = facts.gvk ?? parent;
  const sameGroupVersion = gvk.group === parent.group && gvk.version === parent.version;
  return {
    name,
    kind: gvk.kind,
    ...(sameGroupVersion ? {} : { group: gvk.group, version: gvk.version }),
    verbs: [...facts.verbs].sort(),
  };
}

/**
 * The resource types `served` names (group/version → resources), read from the document's paths.
 * Throws when a named resource has no paths, so a stale facts table fails loudly.
 */
export function resourceTypesOf(
  document: OpenAPIv2,
  served: Record<string, readonly string[]>,
): ResourceType[] {
  const byGroupVersion = collectPathFacts(document);
  return Object.entries(served).flatMap(([groupVersion, resources]) => {
    const facts = byGroupVersion.get(groupVersion) ?? new Map<string, PathFacts>();
    const [group, version] = groupVersion.includes("/") ? groupVersion.split("/") : ["", groupVersion];
    return resources.map((resource) => {
      const main = facts.get(resource);
      if (!main?.gvk) throw new Error(`no OpenAPI paths for ${resource} in ${groupVersion}`);
      const parent = { group, version, kind: main.gvk.kind };
      const subresources = [...facts.entries()]
        .filter(([name]) => name.startsWith(`${resource}/`))
        .map(([name, subFacts]) => subresourceType(name.slice(resource.length + 1), subFacts, parent))
        .sort((a, b) => (a.name < b.name ? -1 : 1));
      return {
        group,
        version,
        resource,
        singularName: main.gvk.kind.toLowerCase(),
        kind: main.gvk.kind,
        listKind: `${main.gvk.kind}List`,
        namespaced: main.namespaced,
        shortNames: [],
        categories: [],
        verbs: [...main.verbs].sort(),
        subresources,
        ...(main.deleteReturnsObject ? { deleteReturnsObject: true as const } : {}),
      };
    });
  });
}
