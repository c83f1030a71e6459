/** The operations kube-apiserver 1.26 documents for the served types of one group/version. */
import type { ResourceType, SubresourceType } from "../api/resource-type.ts";
import type { GroupVersionKind } from "../schema/types.ts";
import { connectSubresource, LOG_PARAMETERS } from "./openapi-facts.ts";
import {
  ANY_MEDIA_TYPE,
  CUSTOM_RESOURCE_MEDIA_TYPES,
  CUSTOM_RESOURCE_PATCH_MEDIA_TYPES,
  type HttpMethod,
  META,
  OBJECT_MEDIA_TYPES,
  type Operation,
  type Parameter,
  PATCH_MEDIA_TYPES,
  type PathOperations,
  type Response,
  STREAM_MEDIA_TYPES,
} from "./openapi-model.ts";
import { groupVersionTag, operationId, type OperationName } from "./openapi-naming.ts";

export interface OperationOptions {
  /** Definition name of a kind's schema. */
  definitionName(group: string, version: string, kind: string): string;
  /** Built-in types are served as protobuf too and take any body and strategic merge patches; custom resources do not. */
  builtIn(type: ResourceType): boolean;
}

const query = (name: string, type: Parameter["type"] = "string"): Parameter => ({ name, in: "query", type });
const path = (name: string): Parameter => ({ name, in: "path", type: "string" });

const PRETTY = query("pretty");
const LIST = [
  query("allowWatchBookmarks", "boolean"),
  query("continue"),
  query("fieldSelector"),
  query("labelSelector"),
  query("limit", "integer"),
  query("resourceVersion"),
  query("resourceVersionMatch"),
  query("timeoutSeconds", "integer"),
  query("watch", "boolean"),
];
const WRITE = [query("dryRun"), query("fieldManager"), query("fieldValidation")];
const DELETE = [query("dryRun"), query("gracePeriodSeconds", "integer"), query("orphanDependents", "boolean"), query("propagationPolicy")];
const DELETE_COLLECTION = [
  ...DELETE,
  ...LIST.filter((parameter) => !["allowWatchBookmarks", "watch"].includes(parameter.name)),
];

/** What the operations of one path act on. */
interface Target {
  type: ResourceType;
  /** The path's own parameters (namespace, name). */
  pathParameters: Parameter[];
  namespaced: boolean;
  subresource?: string;
  gvk: GroupVersionKind;
  /** Definition of request and response bodies. */
  ref: string;
  mediaTypes: readonly string[];
  /** Custom resources: what every operation consumes (a patch: the patch types without strategic merge patch). */
  customResource: boolean;
  /** The path, where later operations hang off it (subresources). */
  route?: string;
}

function responses(codes: Response["code"][], ref: string, mediaTypes: readonly string[]): Response[] {
  return [...codes.map((code) => ({ code, payload: { ref }, mediaTypes })), { code: "401" as const, mediaTypes: [] }];
}

type OperationBody = Pick<Operation, "method" | "action" | "parameters" | "responses" | "body">;
type OperationVerb = Omit<OperationName, "group" | "version" | "namespaced" | "kind">;

function operation(target: Target, name: OperationVerb, rest: OperationBody): Operation {
  const { group, version, kind } = target.type;
  const subresource = target.subresource;
  const built: Operation = {
    operationId: operationId({ ...name, group, version, kind, namespaced: target.namespaced, subresource }),
    tag: groupVersionTag(group, version),
    gvk: target.gvk,
    ...rest,
    parameters: [...target.pathParameters, ...rest.parameters],
  };
  return target.customResource ? customResourceOperation(built) : built;
}

/** A custom resource's operation consumes JSON or YAML, a patch any patch type but strategic merge patch. */
function customResourceOperation(built: Operation): Operation {
  if (!built.body) return { ...built, consumes: CUSTOM_RESOURCE_MEDIA_TYPES };
  const mediaTypes = built.method === "patch" ? CUSTOM_RESOURCE_PATCH_MEDIA_TYPES : CUSTOM_RESOURCE_MEDIA_TYPES;
  return { ...built, body: { ...built.body, mediaTypes } };
}

function withoutProtobuf(mediaTypes: readonly string[], protobuf: boolean): readonly string[] {
  return protobuf ? mediaTypes : mediaTypes.filter((mediaType) => !mediaType.includes("protobuf"));
}

interface VerbShape {
  name: string;
  method: HttpMethod;
  parameters: Parameter[];
  codes: Response["code"][];
  body?: "object" | "patch";
}

/** Discovery verb → the operation kube documents for it on an item, subresource or collection path. */
const VERB_SHAPES: Record<string, VerbShape> = {
  get: { name: "read", method: "get", parameters: [], codes: ["200"] },
  update: { name: "replace", method: "put", parameters: WRITE, codes: ["200", "201"], body: "object" },
  patch: { name: "patch", method: "patch", parameters: [...WRITE, query("force", "boolean")], codes: ["200", "201"], body: "patch" },
  create: { name: "create", method: "post", parameters: WRITE, codes: ["200", "201", "202"], body: "object" },
};

function verbOperation(target: Target, verb: string): Operation | undefined {
  const shape = VERB_SHAPES[verb];
  if (!shape) return undefined;
  const body = shape.body === "patch"
    ? { ref: META + "Patch", mediaTypes: PATCH_MEDIA_TYPES, required: true }
    : shape.body && { ref: target.ref, mediaTypes: ANY_MEDIA_TYPE, required: true };
  return operation(target, { verb: shape.name }, {
    method: shape.method,
    action: shape.method,
    parameters: [PRETTY, ...shape.parameters],
    ...(body ? { body } : {}),
    responses: responses(shape.codes, target.ref, target.mediaTypes),
  });
}

function deleteOperation(target: Target, collection: boolean, ref: string): Operation {
  return operation(target, { verb: "delete", infix: collection ? "Collection" : "" }, {
    method: "delete",
    action: collection ? "deletecollection" : "delete",
    parameters: [PRETTY, ...(collection ? DELETE_COLLECTION : DELETE)],
    body: { ref: META + "DeleteOptions", mediaTypes: ANY_MEDIA_TYPE, required: false },
    responses: responses(collection ? ["200"] : ["200", "202"], ref, target.mediaTypes),
  });
}

function listOperation(target: Target, suffix: string, listRef: string, mediaTypes: readonly string[]): Operation {
  return operation(target, { verb: "list", suffix }, {
    method: "get",
    action: "list",
    parameters: [PRETTY, ...LIST],
    responses: responses(["200"], listRef, mediaTypes),
  });
}

function watchOperation(target: Target, action: "watch" | "watchlist", suffix: string, mediaTypes: readonly string[]): Operation {
  return operation(target, { verb: "watch", suffix }, {
    method: "get",
    action,
    parameters: [PRETTY, ...LIST],
    responses: responses(["200"], META + "WatchEvent", mediaTypes),
  });
}

const STRING_RESPONSE = (mediaTypes: readonly string[]): Response[] => [
  { code: "200", payload: { type: "string" }, mediaTypes },
  { code: "401", mediaTypes: [] },
];

function add(paths: PathOperations, route: string, operations: Array<Operation | undefined>): void {
  const present = operations.filter((entry): entry is Operation => entry !== undefined);
  if (present.length > 0) paths.set(route, [...(paths.get(route) ?? []), ...present]);
}

function collectionOperations(target: Target, refs: { list: string }, verbs: Set<string>, listTypes: readonly string[]) {
  return [
    verbs.has("list") ? listOperation(target, "", refs.list, listTypes) : undefined,
    verbs.has("create") ? verbOperation(target, "create") : undefined,
    verbs.has("deletecollection") ? deleteOperation(target, true, META + "Status") : undefined,
  ];
}

function itemOperations(target: Target, verbs: Set<string>, deleteRef: string): Array<Operation | undefined> {
  return [
    ...["get", "update", "patch"].filter((verb) => verbs.has(verb)).map((verb) => verbOperation(target, verb)),
    verbs.has("delete") ? deleteOperation(target, false, deleteRef) : undefined,
  ];
}

function subresourceOperations(
  paths: PathOperations,
  item: Target,
  subresource: SubresourceType,
  options: OperationOptions,
): void {
  const { type } = item;
  const group = subresource.group ?? type.group;
  const version = subresource.version ?? type.version;
  const target: Target = {
    ...item,
    subresource: subresource.name,
    gvk: { group, kind: subresource.kind, version },
  };
  const route = `${item.route}/${subresource.name}`;
  const connect = connectSubresource(type, subresource.name);
  if (connect) {
    const connectTarget = { ...target, pathParameters: [...item.pathParameters, ...connect.parameters] };
    const connectOperations = (withPath: boolean) =>
      connect.methods.map((method) => {
        const name = { verb: "connect", infix: method.charAt(0).toUpperCase() + method.slice(1), suffix: withPath ? "WithPath" : "" };
        const pathParameters = [...connectTarget.pathParameters, ...(withPath ? [path("path")] : [])];
        return operation({ ...connectTarget, pathParameters }, name, {
          method,
          action: "connect",
          parameters: [],
          responses: STRING_RESPONSE(ANY_MEDIA_TYPE),
        });
      });
    add(paths, route, connectOperations(false));
    if (connect.withPath) add(paths, `${route}/{path}`, connectOperations(true));
    return;
  }
  if (type.group === "" && type.resource === "pods" && subresource.name === "log") {
    add(paths, route, [operation(target, { verb: "read" }, {
      method: "get",
      action: "get",
      parameters: [PRETTY, ...LOG_PARAMETERS],
      responses: STRING_RESPONSE(["text/plain", ...OBJECT_MEDIA_TYPES]),
    })]);
    return;
  }
  target.ref = options.definitionName(group, version, subresource.kind);
  add(paths, route, subresource.verbs.map((verb) => verbOperation(target, verb)));
}

/** The paths and operations of one group/version's types. */
export function groupVersionOperations(
  group: string,
  version: string,
  options: OperationOptions & { types: readonly ResourceType[] },
): PathOperations {
  const paths: PathOperations = new Map();
  const root = group === "" ? `/api/${version}` : `/apis/${group}/${version}`;
  for (const type of options.types) {
    const verbs = new Set(type.verbs);
    const builtIn = options.builtIn(type);
    const objectTypes = withoutProtobuf(OBJECT_MEDIA_TYPES, builtIn);
    const streamTypes = withoutProtobuf(STREAM_MEDIA_TYPES, builtIn);
    const ref = options.definitionName(group, version, type.kind);
    const listRef = options.definitionName(group, version, type.listKind);
    const scope = type.namespaced ? "/namespaces/{namespace}" : "";
    const scopeParameters = type.namespaced ? [path("namespace")] : [];
    const base = {
      type,
      namespaced: type.namespaced,
      gvk: { group, kind: type.kind, version },
      ref,
      mediaTypes: objectTypes,
      customResource: !builtIn,
    };
    const collection: Target = { ...base, pathParameters: scopeParameters };
    const item: Target = { ...base, pathParameters: [path("name"), ...scopeParameters] };
    const collectionPath = `${root}${scope}/${type.resource}`;
    const itemPath = `${collectionPath}/{name}`;
    const deleteRef = type.deleteReturnsObject ? ref : META + "Status";

    add(paths, collectionPath, collectionOperations(collection, { list: listRef }, verbs, streamTypes));
    add(paths, itemPath, itemOperations(item, verbs, deleteRef));
    for (const subresource of type.subresources) subresourceOperations(paths, { ...item, route: itemPath }, subresource, options);
    if (verbs.has("watch")) {
      add(paths, `${root}/watch${scope}/${type.resource}`, [watchOperation(collection, "watchlist", "List", streamTypes)]);
      add(paths, `${root}/watch${scope}/${type.resource}/{name}`, [watchOperation(item, "watch", "", streamTypes)]);
    }
    if (type.namespaced) {
      const everywhere: Target = { ...collection, namespaced: false, pathParameters: [] };
      if (verbs.has("list")) add(paths, `${root}/${type.resource}`, [listOperation(everywhere, "ForAllNamespaces", listRef, streamTypes)]);
      if (verbs.has("watch")) {
        add(paths, `${root}/watch/${type.resource}`, [watchOperation(everywhere, "watchlist", "ListForAllNamespaces", streamTypes)]);
      }
    }
  }
  return paths;
}
