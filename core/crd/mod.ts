/** CustomResourceDefinitions (apiextensions.k8s.io/v1): what the server starts and the hooks it wires in. */
import { readOnlyClient } from "../registry/read-only-client.ts";
import type { Catalog } from "../registry/catalog.ts";
import type { Registry } from "../registry/registry.ts";
import type { SchemaLookup } from "../schema/lookup.ts";
import { startCRDController } from "./controller.ts";
import { CustomSchemas } from "./custom-schemas.ts";
import { CustomResourceServing, type ScaleSubresources } from "./serving.ts";

export type { ScaleSubresource } from "../registry/apiextensions/mod.ts";
export type { ScaleSubresources } from "./serving.ts";

export interface CustomResources {
  /** Built-in plus custom resource schemas, for OpenAPI. */
  schemas: SchemaLookup;
  stop(): void;
}

/**
 * Serves every stored CRD before resolving and keeps following them; custom resources' scale subresources are
 * handed to `scaleSubresources`.
 */
export async function startCustomResources(
  registry: Registry,
  catalog: Catalog,
  options: { scaleSubresources: ScaleSubresources },
): Promise<CustomResources> {
  const schemas = new CustomSchemas();
  const serving = new CustomResourceServing({
    catalog,
    registry,
    schemas,
    scaleSubresources: options.scaleSubresources,
    client: readOnlyClient(registry, catalog),
  });
  const controller = await startCRDController(registry, catalog, { serving });
  return {
    schemas: schemas.lookup,
    stop: () => controller.stop(),
  };
}
export { validateValue } from "./structural/validate.ts";
