/** A neutral description of the served operations, rendered as OpenAPI v3 (per group/version) or v2 (one document). */
import type { GroupVersionKind } from "../schema/types.ts";

export type HttpMethod = "get" | "put" | "post" | "patch" | "delete" | "head" | "options";

export interface Parameter {
  name: string;
  in: "path" | "query";
  type: "string" | "integer" | "boolean";
}

/** A definition (by name) or a plain string (logs, connect streams). */
export type Payload = { ref: string } | { type: "string" };

export interface Response {
  code: "200" | "201" | "202" | "401";
  payload?: Payload;
  /** In kube's v2 `produces` order; v3 lists them sorted. */
  mediaTypes: readonly string[];
}

export interface Operation {
  method: HttpMethod;
  operationId: string;
  tag: string;
  action?: string;
  gvk?: GroupVersionKind;
  parameters: Parameter[];
  body?: { ref: string; mediaTypes: readonly string[]; required: boolean };
  /** What a bodiless operation consumes where it is not "*\/*" (custom resources: JSON and YAML). */
  consumes?: readonly string[];
  responses: Response[];
}

/** Path (e.g. "/apis/apps/v1/namespaces/{namespace}/deployments") → its operations. */
export type PathOperations = Map<string, Operation[]>;

export const OBJECT_MEDIA_TYPES = ["application/json", "application/yaml", "application/vnd.kubernetes.protobuf"];
export const STREAM_MEDIA_TYPES = [
  ...OBJECT_MEDIA_TYPES,
  "application/json;stream=watch",
  "application/vnd.kubernetes.protobuf;stream=watch",
];
export const PATCH_MEDIA_TYPES = [
  "application/json-patch+json",
  "application/merge-patch+json",
  "application/strategic-merge-patch+json",
  "application/apply-patch+yaml",
];
export const ANY_MEDIA_TYPE = ["*/*"];
/** Custom resources take bodies as JSON or YAML and no strategic merge patch (apiextensions-apiserver's openapi builder.buildRoute). */
export const CUSTOM_RESOURCE_MEDIA_TYPES = ["application/json", "application/yaml"];
export const CUSTOM_RESOURCE_PATCH_MEDIA_TYPES = PATCH_MEDIA_TYPES.filter((mediaType) =>
  mediaType !== "application/strategic-merge-patch+json"
);

export const META = "io.k8s.apimachinery.pkg.apis.meta.v1.";

/** HTTP reason phrases, used as the required response descriptions. */
export const RESPONSE_TEXT: Record<Response["code"], string> = {
  "200": "OK",
  "201": "Created",
  "202": "Accepted",
  "401": "Unauthorized",
};

function compareParameters(a: Parameter, b: Parameter): number {
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return a.in < b.in ? -1 : a.in > b.in ? 1 : 0;
}

/**
 * Splits parameters as kube-openapi does: those every operation of the path shares go on the path,
 * the rest stay on the operations; both sorted by name.
 */
export function splitParameters(operations: readonly Operation[]): { shared: Parameter[]; own: Parameter[][] } {
  const key = (parameter: Parameter) => `${parameter.in}:${parameter.name}:${parameter.type}`;
  const sharedKeys = new Set(operations[0]?.parameters.map(key) ?? []);
  for (const operation of operations.slice(1)) {
    const keys = new Set(operation.parameters.map(key));
    for (const candidate of sharedKeys) if (!keys.has(candidate)) sharedKeys.delete(candidate);
  }
  const shared = (operations[0]?.parameters ?? []).filter((parameter) => sharedKeys.has(key(parameter)));
  return {
    shared: [...shared].sort(compareParameters),
    own: operations.map((operation) => operation.parameters.filter((parameter) => !sharedKeys.has(key(parameter))).sort(compareParameters)),
  };
}
