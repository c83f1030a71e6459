/**
 * The VersionConverter server-side apply compares managers' field sets with (kube's versionConverter): a built-in
 * kind converts through its stored form to any version that has a schema for it; a version without one is missing
 * (kube's typeConverter knows no corresponding type), so its managers are dropped. A custom resource converts with
 * its CRD's strategy, webhook included; a version the CRD does not list is not missing but an error (kube's
 * crConverter.ConvertToVersion), which fails an apply and clears managedFields on other writes.
 */
import { StatusError } from "../api/errors.ts";
import type { ResourceType } from "../api/resource-type.ts";
import type { KubeObject } from "../api/types.ts";
import { typeFromSchema, type VersionConverter } from "../apply/ssa/mod.ts";
import { builtInSchemas } from "../schema/lookup.ts";
import { convertToVersion } from "./conversion/mod.ts";
import type { StoreExtension } from "./store-extension.ts";

/** apimachinery's schema.ParseGroupVersion: "v1" is the core group, one slash splits group and version. */
function parseGroupVersion(apiVersion: string): { group: string; version: string } {
  const parts = apiVersion.split("/");
  if (parts.length === 1) return { group: "", version: apiVersion };
  if (parts.length === 2) return { group: parts[0], version: parts[1] };
  throw new Error(`unexpected GroupVersion string: ${apiVersion}`);
}

export function builtInVersionConverter(type: ResourceType): VersionConverter {
  return {
    convert(obj, apiVersion) {
      const to = { ...parseGroupVersion(apiVersion), resource: type.resource };
      const schema = builtInSchemas.schemaForKind(to.group, to.version, type.kind);
      if (!schema) return undefined;
      const from = { ...parseGroupVersion(String(obj.apiVersion ?? "")), resource: type.resource };
      return { object: convertToVersion(obj, from, to), type: typeFromSchema(schema) };
    },
  };
}

export function customResourceVersionConverter(extension: StoreExtension): VersionConverter {
  return {
    async convert(obj, apiVersion) {
      parseGroupVersion(apiVersion);
      const target = extension.versionMergeType(apiVersion);
      if (!target) throw new Error(`request to convert CR to an invalid group/version: ${apiVersion}`);
      const [converted] = await convertedOrRawError(extension, obj, apiVersion);
      return { object: converted!, type: target };
    },
  };
}

/** The conversion's own message: kube's webhook converter fails with a plain error, not an internal-error Status. */
async function convertedOrRawError(extension: StoreExtension, obj: KubeObject, apiVersion: string): Promise<KubeObject[]> {
  try {
    return await extension.convert([obj], apiVersion, false);
  } catch (e) {
    if (e instanceof StatusError && e.reason === "InternalError") throw new Error(e.details?.causes?.[0]?.message ?? e.message);
    throw e;
  }
}
