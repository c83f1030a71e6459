/** Finds the handler for a resource request: the type must exist, be addressed at its scope, and allow the verb. */
import { newBadRequest, newMethodNotSupported, StatusError } from "../api/errors.ts";
import { goQuote } from "../api/go-text.ts";
import { isValidPathSegmentName } from "../api/names.ts";
import type { ResourceType } from "../api/resource-type.ts";
import { handleCreate } from "./handlers/create.ts";
import type { Handler } from "./handlers/context.ts";
import { handleDelete } from "./handlers/delete.ts";
import { handleDeleteCollection } from "./handlers/delete-collection.ts";
import { handleGet } from "./handlers/get.ts";
import { handleList } from "./handlers/list.ts";
import { handlePatch } from "./handlers/patch.ts";
import { builtInSchemaOf, patchMediaType } from "./handlers/patch-body.ts";
import { handleUpdate } from "./handlers/update.ts";
import { handleWatch } from "./handlers/watch.ts";
import { isWatchPrefixed, namesEmptyNamespace, type RequestInfo } from "./request-info.ts";
import { virtualHandlerKey, type VirtualHandlers } from "./virtual-handlers.ts";

const HANDLERS: Record<string, Handler> = {
  get: handleGet,
  list: handleList,
  watch: handleWatch,
  create: handleCreate,
  update: handleUpdate,
  patch: handlePatch,
  delete: handleDelete,
  deletecollection: handleDeleteCollection,
};

/** Subresources the generic store serves; the others answer through virtual handlers. */
const GENERIC_SUBRESOURCES = new Set(["status", "finalize", "ephemeralcontainers", "approval"]);

export function newResourceNotFound(): StatusError {
  return new StatusError(404, "NotFound", "the server could not find the requested resource", {});
}

export function newMethodNotAllowed(): StatusError {
  return new StatusError(405, "MethodNotAllowed", "the server does not allow this method on the requested resource", {});
}

/** kube's NamespaceKeyFunc on an empty namespace: a namespaced store cannot key an item without one. */
export function newNamespaceParameterRequired(): StatusError {
  return newBadRequest("Namespace parameter required.");
}

/** `method` is the request's HTTP method: a `/watch/` path's verb is watch whatever the method. */
export function routeResource(
  info: RequestInfo,
  type: ResourceType | undefined,
  virtual: VirtualHandlers,
  method: string,
): Handler {
  // Only proxy subresources take a path after them (kube's "{path:*}" connect routes).
  if (!type || (info.parts.length > 3 && info.subresource !== "proxy")) throw newResourceNotFound();
  // A cluster-scoped type has no namespaced paths: no route at all.
  if (!type.namespaced && info.namespace !== "" && type.resource !== "namespaces") throw newResourceNotFound();
  checkRouteMethod(info, type, method);
  const special = virtual.get(virtualHandlerKey(type.group, type.resource, info.subresource));
  if (special) {
    checkSubresourceName(info);
    checkNameParameter(info.name);
    return special;
  }
  if (info.subresource) {
    const sub = type.subresources.find((s) => s.name === info.subresource);
    if (!sub) throw newResourceNotFound();
    if (!GENERIC_SUBRESOURCES.has(sub.name)) throw newMethodNotSupported(qualifiedResource(type, info), info.verb);
  }
  // A namespaced item needs its namespace.
  if (type.namespaced && info.namespace === "" && info.verb !== "list" && info.verb !== "watch") {
    // An empty namespace segment matches go-restful's {namespace}. On an item (namespaces//configmaps/x) its store's
    // NamespaceKeyFunc refuses the namespace ""; on the collection, create and deletecollection run with it (their
    // own checks answer: validation's metadata.namespace Required, the per-item Delete's NamespaceKeyFunc).
    if (namesEmptyNamespace(info)) {
      if (info.name !== "") return refusedAfterPatchType(info, newNamespaceParameterRequired());
    } else throw info.name === "" ? newMethodNotAllowed() : newResourceNotFound();
  }
  if (info.name === "" && info.subresource !== "") return refusedAfterPatchType(info, newEmptyName());
  // Virtual types (spec 2.1: reviews, bindings, componentstatuses) have no storage version in the catalog data and
  // answer only through their own handlers, never the generic store.
  if (type.storageVersionHash === undefined) throw newMethodNotSupported(qualifiedResource(type, info), info.verb);
  if (!info.subresource && !type.verbs.includes(info.verb)) throw newMethodNotSupported(qualifiedResource(type, info), info.verb);
  const handler = HANDLERS[info.verb];
  if (!handler) throw newMethodNotAllowed();
  checkNameParameter(info.name);
  return handler;
}

/** The resource a refusal names: with its subresource. */
function qualifiedResource(type: ResourceType, info: RequestInfo): { group: string; resource: string } {
  return { group: type.group, resource: info.subresource ? `${type.resource}/${info.subresource}` : type.resource };
}

/**
 * go-restful's CurlyRouter.detectRoute: a path shape with no route at all is its 404, one whose routes lack the
 * method its 405, both before any handler. The installer (registerResourceHandlers) adds each route only for a verb
 * the type's storage has: on the collection GET (LIST), POST and DELETE (DELETECOLLECTION); on the item GET, PUT,
 * PATCH and DELETE; under `watch/` GET only (WATCHLIST, WATCH); a subresource the verbs its storage implements;
 * proxy takes every method.
 */
function checkRouteMethod(info: RequestInfo, type: ResourceType, method: string): void {
  if (info.subresource === "proxy") return;
  if (info.subresource !== "") {
    const sub = type.subresources.find((s) => s.name === info.subresource);
    if (sub && !subresourceVerbAllowed(METHOD_VERB_OF[info.verb] ?? info.verb, sub.verbs)) throw newMethodNotAllowed();
    return;
  }
  const methods = routeMethods(info, type);
  if (methods.length === 0) throw newResourceNotFound();
  if (!methods.includes(method === "HEAD" ? "GET" : method)) throw newMethodNotAllowed();
}

/** The methods of the routes installed for the request's path shape; none when the installer added no route. */
function routeMethods(info: RequestInfo, type: ResourceType): readonly string[] {
  const verbs = type.verbs;
  // A namespaced type's paths without a namespace get LIST and WATCHLIST only ("all namespaces").
  const acrossNamespaces = type.namespaced && info.namespace === "" && !namesEmptyNamespace(info);
  if (info.verb === "watch" && isWatchPrefixed(info)) {
    const watchable = info.name === "" ? verbs.includes("list") && verbs.includes("watch") : verbs.includes("watch") && !acrossNamespaces;
    return watchable ? ONLY_GET : NONE;
  }
  if (info.name === "") {
    if (acrossNamespaces) return verbs.includes("list") ? ONLY_GET : NONE;
    return installedMethods(verbs).collection;
  }
  return acrossNamespaces ? NONE : installedMethods(verbs).item;
}

const ONLY_GET: readonly string[] = ["GET"];
const NONE: readonly string[] = [];

/** The methods of a kind's collection and item routes, worked out once per verbs list (which the catalog never changes). */
const methodsOfVerbs = new WeakMap<readonly string[], { collection: readonly string[]; item: readonly string[] }>();

function installedMethods(verbs: readonly string[]): { collection: readonly string[]; item: readonly string[] } {
  let methods = methodsOfVerbs.get(verbs);
  if (!methods) {
    methods = { collection: methodsFor(verbs, COLLECTION_ROUTES), item: methodsFor(verbs, ITEM_ROUTES) };
    methodsOfVerbs.set(verbs, methods);
  }
  return methods;
}

function methodsFor(verbs: readonly string[], routes: [verb: string, method: string][]): string[] {
  return routes.filter(([verb]) => verbs.includes(verb)).map(([, method]) => method);
}

/** RequestInfo turns a GET or DELETE without a name into these; a subresource's route is chosen by the method alone. */
const METHOD_VERB_OF: Record<string, string> = { list: "get", watch: "get", deletecollection: "delete" };
const COLLECTION_ROUTES: [string, string][] = [["list", "GET"], ["create", "POST"], ["deletecollection", "DELETE"]];
const ITEM_ROUTES: [string, string][] = [["get", "GET"], ["update", "PUT"], ["patch", "PATCH"], ["delete", "DELETE"]];

/**
 * PatchResource checks the patch type before its Namer and the store key, so a PATCH meets its 415 before the
 * empty name's or namespace's 400; the other verbs meet the 400 at once.
 */
function refusedAfterPatchType(info: RequestInfo, error: StatusError): Handler {
  if (info.verb !== "patch") throw error;
  return (ctx) => {
    patchMediaType(ctx, builtInSchemaOf(ctx.type.group, ctx.type.version, ctx.type.kind));
    throw error;
  };
}

/**
 * A subresource's path with an empty name (`pods//status`) matches its go-restful route, and the handler's
 * ScopeNamer.Name refuses it (errEmptyName, endpoints/handlers/namer.go).
 */
function checkSubresourceName(info: RequestInfo): void {
  if (info.name === "" && info.subresource !== "") throw newEmptyName();
}

function newEmptyName(): StatusError {
  return newBadRequest("name must be provided");
}

/** kube's NamespaceKeyFunc / NoNamespaceKeyFunc: a name in the path must be usable as a storage key segment. */
function checkNameParameter(name: string): void {
  const problems = name === "" ? [] : isValidPathSegmentName(name);
  if (problems.length > 0) throw newBadRequest(`Name parameter invalid: ${goQuote(name)}: ${problems.join(";")}`);
}

/** NamespaceKeyFunc on a name a handler takes from the body rather than the path: it must name something too. */
export function checkKeyName(name: string): void {
  if (name === "") throw newBadRequest("Name parameter required.");
  checkNameParameter(name);
}

function subresourceVerbAllowed(verb: string, verbs: string[]): boolean {
  return verbs.includes(verb) || (verb === "update" && verbs.includes("put"));
}
