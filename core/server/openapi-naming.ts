/** kube's operation ids and tags: "listAppsV1NamespacedDeployment", tag "apps_v1", group tag "rbacAuthorization". */

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** "rbac.authorization.k8s.io" → "RbacAuthorization", "" → "Core", "stable.example.com" → "StableExampleCom". */
export function groupIdentifier(group: string): string {
  if (group === "") return "Core";
  return group.replace(/\.k8s\.io$/, "").split(/[.-]/).map(capitalize).join("");
}

/** The tag of the group's own operations: "core", "apps", "rbacAuthorization". */
export function groupTag(group: string): string {
  const identifier = groupIdentifier(group);
  return identifier.charAt(0).toLowerCase() + identifier.slice(1);
}

/** The tag of a group/version's operations: "core_v1", "apps_v1". */
export function groupVersionTag(group: string, version: string): string {
  return `${groupTag(group)}_${version}`;
}

export interface OperationName {
  /** "read", "list", "create", "replace", "patch", "delete", "watch", "connect" (+ method). */
  verb: string;
  group: string;
  version: string;
  /** Text between the group/version and the scope, e.g. "Collection". */
  infix?: string;
  namespaced: boolean;
  kind: string;
  /** Subresource name, e.g. "status" → "Status". */
  subresource?: string;
  /** Text after the kind, e.g. "List", "ForAllNamespaces", "WithPath". */
  suffix?: string;
}

export function operationId(name: OperationName): string {
  return [
    name.verb,
    groupIdentifier(name.group),
    capitalize(name.version),
    name.infix ?? "",
    name.namespaced ? "Namespaced" : "",
    name.kind,
    name.subresource ? capitalize(name.subresource) : "",
    name.suffix ?? "",
  ].join("");
}
