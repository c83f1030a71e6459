/** The registry of served resource types: the built-ins plus those added at run time (CRDs). */
import { BUILT_IN_RESOURCE_TYPES } from "./catalog.gen.ts";
import {
  builtInPriority,
  CUSTOM_RESOURCE_PRIORITY,
  type GroupVersionEntry,
  type OrderedGroup,
  orderGroups,
  type VersionPriority,
} from "./group-priority.ts";
import type { ResourceType } from "../api/resource-type.ts";

export interface CatalogChange {
  type: "added" | "updated" | "removed";
  resourceType: ResourceType;
}

export type CatalogListener = (change: CatalogChange) => void;

function resourceKey(group: string, version: string, resource: string): string {
  return `${group}/${version}/${resource}`;
}

function groupVersionKey(group: string, version: string): string {
  return `${group}/${version}`;
}

/**
 * Types by group, version and one name, a map per level: every served request looks its type up (routing, then
 * NamespaceLifecycle's admission), and a key made of the three names cost it ~0.5-1 µs (bench/profiles/create-path.md,
 * thirteenth session).
 */
class TypeIndex {
  readonly #groups = new Map<string, Map<string, Map<string, ResourceType>>>();

  get(group: string, version: string, name: string): ResourceType | undefined {
    return this.#groups.get(group)?.get(version)?.get(name);
  }

  set(group: string, version: string, name: string, type: ResourceType): void {
    let versions = this.#groups.get(group);
    if (!versions) this.#groups.set(group, versions = new Map());
    let names = versions.get(version);
    if (!names) versions.set(version, names = new Map());
    names.set(name, type);
  }

  delete(group: string, version: string, name: string): void {
    this.#groups.get(group)?.get(version)?.delete(name);
  }
}

export class Catalog {
  /** Every type in insertion order, by resourceKey. */
  #byResource = new Map<string, ResourceType>();
  #resources = new TypeIndex();
  #byKind = new TypeIndex();
  #builtIn = new Set<string>();
  #priorities = new Map<string, VersionPriority>();
  #listeners = new Set<CatalogListener>();

  constructor(builtIns: readonly ResourceType[] = []) {
    for (const type of builtIns) {
      this.#index(type);
      this.#builtIn.add(resourceKey(type.group, type.version, type.resource));
    }
  }

  /** Adds a type, or replaces the one with the same group/version/resource, and tells the listeners. */
  add(type: ResourceType): void {
    const replaced = this.#byResource.get(resourceKey(type.group, type.version, type.resource));
    if (replaced) this.#byKind.delete(replaced.group, replaced.version, replaced.kind);
    this.#index(type);
    this.#emit({ type: replaced ? "updated" : "added", resourceType: type });
  }

  /** Removes a type; answers whether it was there. */
  remove(group: string, version: string, resource: string): boolean {
    const key = resourceKey(group, version, resource);
    const type = this.#byResource.get(key);
    if (!type) return false;
    this.#byResource.delete(key);
    this.#resources.delete(group, version, resource);
    this.#byKind.delete(group, version, type.kind);
    this.#builtIn.delete(key);
    this.#emit({ type: "removed", resourceType: type });
    return true;
  }

  /** Calls `listener` after every add/remove; the returned function unsubscribes. */
  onChange(listener: CatalogListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  byGroupVersionResource(group: string, version: string, resource: string): ResourceType | undefined {
    return this.#resources.get(group, version, resource);
  }

  byKind(group: string, version: string, kind: string): ResourceType | undefined {
    return this.#byKind.get(group, version, kind);
  }

  /** Every type, in insertion order. */
  all(): ResourceType[] {
    return [...this.#byResource.values()];
  }

  /** The types of one group/version, sorted by resource name as kube's discovery lists them. */
  resources(group: string, version: string): ResourceType[] {
    return this.all()
      .filter((type) => type.group === group && type.version === version)
      .sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0));
  }

  /** Whether the type came from the generated built-in list (kube 1.26 leaves their discovery singularName empty). */
  isBuiltIn(type: ResourceType): boolean {
    return this.#builtIn.has(resourceKey(type.group, type.version, type.resource));
  }

  /** Sets the discovery priority of a group/version (as an APIService's groupPriorityMinimum/versionPriority do). */
  setPriority(group: string, version: string, priority: VersionPriority): void {
    this.#priorities.set(groupVersionKey(group, version), priority);
  }

  /** Versions of the core group that have types ("v1"). */
  coreVersions(): string[] {
    return [...new Set(this.all().filter((type) => type.group === "").map((type) => type.version))];
  }

  /** Named group/versions with at least one type, each with its discovery priority, unordered. */
  groupVersions(): GroupVersionEntry[] {
    const seen = new Set<string>();
    const entries = [];
    for (const type of this.#byResource.values()) {
      const key = groupVersionKey(type.group, type.version);
      if (type.group === "" || seen.has(key)) continue;
      seen.add(key);
      entries.push({ group: type.group, version: type.version, priority: this.#priorityOf(type.group, type.version) });
    }
    return entries;
  }

  /** Named groups with at least one type, in kube-apiserver's /apis order, versions most preferred first. */
  groups(): OrderedGroup[] {
    return orderGroups(this.groupVersions());
  }

  group(name: string): OrderedGroup | undefined {
    return this.groups().find((group) => group.name === name);
  }

  preferredVersion(group: string): string | undefined {
    if (group === "") return this.coreVersions()[0];
    return this.group(group)?.versions[0];
  }

  #priorityOf(group: string, version: string): VersionPriority {
    return this.#priorities.get(groupVersionKey(group, version)) ?? builtInPriority(group, version) ??
      CUSTOM_RESOURCE_PRIORITY;
  }

  #index(type: ResourceType): void {
    this.#byResource.set(resourceKey(type.group, type.version, type.resource), type);
    this.#resources.set(type.group, type.version, type.resource, type);
    this.#byKind.set(type.group, type.version, type.kind, type);
  }

  #emit(change: CatalogChange): void {
    for (const listener of this.#listeners) listener(change);
  }
}

/** A catalog holding kube 1.26's built-in resource types (spec 2.13). */
export function builtInCatalog(): Catalog {
  return new Catalog(BUILT_IN_RESOURCE_TYPES);
}
