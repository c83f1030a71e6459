/**
 * Resolves the admission flags to loaded plugins: built-in names through the catalog, module paths (from
 * --enable-admission-plugins or every .ts/.js file of --admission-plugin-dir) imported from disk.
 */
import { readdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { LoadedAdmissionPlugin } from "../core/admission/build.ts";
import { selectAdmissionPlugins } from "../core/admission/selection.ts";
import type { AdmissionPluginFactory } from "../core/admission/types.ts";
import { bakedAdmissionPlugin } from "../plugins/baked.ts";
import { importPluginModule, isModulePath, loadPlugin } from "../plugins/loader.ts";
import { ADMISSION_PLUGIN_SET, ADMISSION_PLUGINS } from "./mod.ts";

export interface AdmissionFlags {
  enableAdmissionPlugins: string[];
  disableAdmissionPlugins: string[];
  admissionPluginDir: string;
  acceptUnimplementedAdmissionPlugins: string[];
}

/** A plugin run in the custom plugins' place: a module path, or a plugin baked into the binary (by name). */
function isCustom(name: string): boolean {
  if (isModulePath(name)) return true;
  if (!bakedAdmissionPlugin(name)) return false;
  if (ADMISSION_PLUGIN_SET.order.includes(name)) throw new Error(`baked admission plugin "${name}" has a built-in plugin's name`);
  return true;
}

export async function loadAdmissionPlugins(flags: AdmissionFlags): Promise<LoadedAdmissionPlugin[]> {
  const custom = [...flags.enableAdmissionPlugins.filter(isCustom), ...(await pluginFiles(flags.admissionPluginDir))];
  const names = selectAdmissionPlugins(ADMISSION_PLUGIN_SET, {
    enable: flags.enableAdmissionPlugins.filter((name) => !isCustom(name)),
    disable: flags.disableAdmissionPlugins,
    custom,
    acceptUnimplemented: flags.acceptUnimplementedAdmissionPlugins,
  });
  return await Promise.all(
    names.map(async (name): Promise<LoadedAdmissionPlugin> => {
      if (isModulePath(name)) return { builtIn: false, name, factory: await importPluginModule<AdmissionPluginFactory>(name, "admission") };
      const baked = bakedAdmissionPlugin(name);
      if (baked) return { builtIn: false, name, factory: baked };
      return { builtIn: true, name, factory: await loadPlugin(name, ADMISSION_PLUGINS, "admission") };
    }),
  );
}

async function pluginFiles(dir: string): Promise<string[]> {
  if (!dir) return [];
  const entries = await readdir(dir).catch((error: Error) => {
    throw new Error(`cannot read --admission-plugin-dir ${dir}: ${error.message}`, { cause: error });
  });
  return entries.filter((file) => /\.(ts|js|mjs)$/.test(file) && !/\.test\.(ts|js|mjs)$/.test(file)).sort().map((file) =>
    resolve(join(dir, file))
  );
}
