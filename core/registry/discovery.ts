/** Discovery documents (/api, /apis, /apis/<group>, /api/v1, /apis/<group>/<version>) shaped as kube-apiserver 1.26 writes them. */
import type { Catalog } from "./catalog.ts";
import type { OrderedGroup } from "./group-priority.ts";
import type { ResourceType } from "../api/resource-type.ts";

export interface ServerAddressByClientCIDR {
  clientCIDR: string;
  serverAddress: string;
}

export interface APIVersions {
  kind: "APIVersions";
  versions: string[];
  serverAddressByClientCIDRs: ServerAddressByClientCIDR[];
}

export interface GroupVersionForDiscovery {
  groupVersion: string;
  version: string;
}

export interface APIGroup {
  name: string;
  versions: GroupVersionForDiscovery[];
  preferredVersion: GroupVersionForDiscovery;
}

export interface APIGroupList {
  kind: "APIGroupList";
  apiVersion: "v1";
  groups: APIGroup[];
}

export interface APIResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  storageVersionHash?: string;
}

export interface APIResourceList {
  kind: "APIResourceList";
  /** Absent for the core group's /api/v1, as kube writes it. */
  apiVersion?: "v1";
  groupVersion: string;
  resources: APIResource[];
}

/** `/api`: the legacy core group's versions and the address clients should use. */
export function apiVersions(serverAddress: string): APIVersions {
  return {
    kind: "APIVersions",
    versions: ["v1"],
    serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress }],
  };
}

export function discoveryGroup(group: OrderedGroup): APIGroup {
  const versions = group.versions.map((version) => ({ groupVersion: `${group.name}/${version}`, version }));
  return { name: group.name, versions, preferredVersion: versions[0] };
}

/** `/apis`: every named group in kube's order, each with its preferred version first. */
export function apiGroupList(catalog: Catalog): APIGroupList {
  return { kind: "APIGroupList", apiVersion: "v1", groups: catalog.groups().map(discoveryGroup) };
}

/** `/apis/<group>`, or undefined when no type of that group is served. */
export function apiGroup(catalog: Catalog, group: string): (APIGroup & { kind: "APIGroup"; apiVersion: "v1" }) | undefined {
  const found = catalog.group(group);
  return found && { kind: "APIGroup", apiVersion: "v1", ...discoveryGroup(found) };
}

function resourceEntries(type: ResourceType, singularName: string): APIResource[] {
  const main: APIResource = {
    name: type.resource,
    singularName,
    namespaced: type.namespaced,
    kind: type.kind,
    verbs: type.verbs,
  };
  if (type.shortNames.length > 0) main.shortNames = type.shortNames;
  if (type.categories.length > 0) main.categories = type.categories;
  if (type.storageVersionHash) main.storageVersionHash = type.storageVersionHash;
  const subresources = type.subresources.map((subresource): APIResource => ({
    name: `${type.resource}/${subresource.name}`,
    singularName: "",
    namespaced: type.namespaced,
    ...(subresource.group !== undefined ? { group: subresource.group, version: subresource.version } : {}),
    kind: subresource.kind,
    verbs: subresource.verbs,
  }));
  return [main, ...subresources];
}

/** `/api/v1` or `/apis/<group>/<version>`, or undefined when nothing is served there. */
export function apiResourceList(catalog: Catalog, group: string, version: string): APIResourceList | undefined {
  const types = catalog.resources(group, version);
  if (types.length === 0) return undefined;
  // kube lists resources and subresources together, sorted by path.
  const resources = types
    .flatMap((type) => resourceEntries(type, catalog.isBuiltIn(type) ? "" : type.singularName))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const groupVersion = group === "" ? version : `${group}/${version}`;
  return group === ""
    ? { kind: "APIResourceList", groupVersion, resources }
    : { kind: "APIResourceList", apiVersion: "v1", groupVersion, resources };
}
