/**
 * Serving a CRD's resource types: catalog entries (discovery, routing, OpenAPI follow the catalog), the store
 * extensions (definitions, printers included), scale handlers and published schemas, replaced as a whole when the CRD changes.
 */
import type { ReadOnlyClient } from "../api/client.ts";
import type { Catalog } from "../registry/catalog.ts";
import type { Registry } from "../registry/registry.ts";
import type { ResourceType } from "../api/resource-type.ts";
import { converterFor } from "./conversion/converter.ts";
import { type CRDNames, type CustomResourceDefinition, type ScaleSubresource, storageVersionOf } from "../registry/apiextensions/mod.ts";
import type { CustomSchemas } from "./custom-schemas.ts";
import { customResourceExtension } from "./extension.ts";
import { definitionName, publishedSchema } from "./published-schema.ts";
import { resourceTypesOf } from "./resource-types.ts";

/**
 * Where the scale subresources of custom resources are served (the server's subresource handlers): one entry per
 * group and plural, holding the scale paths of each version that has the subresource.
 */
export interface ScaleSubresources {
  set(group: string, plural: string, pathsByVersion: ReadonlyMap<string, ScaleSubresource>): void;
  delete(group: string, plural: string): void;
}

export interface ServingDeps {
  catalog: Catalog;
  registry: Registry;
  schemas: CustomSchemas;
  scaleSubresources: ScaleSubresources;
  /** Reads the Services and Endpoints a conversion webhook's clientConfig names. */
  client: ReadOnlyClient;
}

function typeKey(type: ResourceType): string {
  return `${type.group}/${type.version}/${type.resource}`;
}

export class CustomResourceServing {
  readonly #deps: ServingDeps;
  /** CRD name → the types it serves. */
  readonly #served = new Map<string, ResourceType[]>();

  constructor(deps: ServingDeps) {
    this.#deps = deps;
  }

  /** The types a CRD serves now (empty when it serves none). */
  servedTypes(crdName: string): ResourceType[] {
    return this.#served.get(crdName) ?? [];
  }

  /** Serves every served version of `crd` under `names`, replacing what it served before. */
  serve(crd: CustomResourceDefinition, names: CRDNames): void {
    const name = crd.metadata.name as string;
    const storage = storageVersionOf(crd);
    if (!storage) return;
    const types = resourceTypesOf(crd, names);
    const definitions = Object.fromEntries(
      crd.spec.versions.filter((v) => v.served).map((v) => [
        definitionName(crd.spec.group, v.name, names.kind),
        publishedSchema(crd.spec.group, v.name, names.kind, v.schema?.openAPIV3Schema),
      ]),
    );
    // Schemas first: the OpenAPI documents rebuild when the catalog changes.
    this.#deps.schemas.set(name, definitions);
    const convert = converterFor(crd, this.#deps.client);
    const kept = new Set(types.map(typeKey));
    for (const old of this.servedTypes(name)) if (!kept.has(typeKey(old))) this.#remove(old);
    for (const type of types) {
      const version = crd.spec.versions.find((v) => v.name === type.version)!;
      this.#deps.registry.extend(type, customResourceExtension(crd, version, storage.name, convert));
      this.#deps.catalog.add(type);
    }
    // One handler per resource (handler keys carry no version); it reads the paths of the requested version.
    const scalePaths = new Map(
      crd.spec.versions.flatMap((v) => v.served && v.subresources?.scale ? [[v.name, v.subresources.scale] as const] : []),
    );
    if (scalePaths.size > 0) this.#deps.scaleSubresources.set(crd.spec.group, names.plural, scalePaths);
    else this.#deps.scaleSubresources.delete(crd.spec.group, names.plural);
    this.#served.set(name, types);
  }

  /** Stops serving everything `crdName` served. */
  unserve(crdName: string): void {
    for (const type of this.servedTypes(crdName)) this.#remove(type);
    this.#served.delete(crdName);
    this.#deps.schemas.delete(crdName);
  }

  #remove(type: ResourceType): void {
    this.#deps.catalog.remove(type.group, type.version, type.resource);
    this.#deps.registry.forget(type);
    this.#deps.scaleSubresources.delete(type.group, type.resource);
  }
}
