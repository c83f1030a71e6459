/**
 * Resolves the admission flags to loaded plugins: built-in names through the catalog; module paths (from
 * --enable-admission-plugins or every .ts/.js file of --admission-plugin-dir) are left to the chain, which
 * loads each in its own workers.
 */
import { readdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { LoadedAdmissionPlugin } from "../core/admission/build.ts";
import { selectAdmissionPlugins } from "../core/admission/selection.ts";
import { isModulePath, loadPlugin } from "../plugins/loader.ts";
import { ADMISSION_PLUGIN_SET, ADMISSION_PLUGINS } from "./mod.ts";

export interface AdmissionFlags {
  enableAdmissionPlugins: string[];
  disableAdmissionPlugins: string[];
  admissionPluginDir: string;
  acceptUnimplementedAdmissionPlugins: string[];
}

export async function loadAdmissionPlugins(flags: AdmissionFlags): Promise<LoadedAdmissionPlugin[]> {
  const custom = [...flags.enableAdmissionPlugins.filter(isModulePath), ...(await pluginFiles(flags.admissionPluginDir))];
  const names = selectAdmissionPlugins(ADMISSION_PLUGIN_SET, {
    enable: flags.enableAdmissionPlugins.filter((name) => !isModulePath(name)),
    disable: flags.disableAdmissionPlugins,
    custom,
    acceptUnimplemented: flags.acceptUnimplementedAdmissionPlugins,
  });
  return await Promise.all(
    names.map(async (name): Promise<LoadedAdmissionPlugin> =>
      isModulePath(name)
        ? { builtIn: false, name }
        : { builtIn: true, name, factory: await loadPlugin(name, ADMISSION_PLUGINS, "admission") }
    ),
  );
}

async function pluginFiles(dir: string): Promise<string[]> {
  if (!dir) return [];
  const entries = await readdir(dir).catch((error: Error) => {
    throw new Error(`cannot read --admission-plugin-dir ${dir}: ${error.message}`);
  });
  return entries.filter((file) => /\.(ts|js|mjs)$/.test(file) && !/\.test\.(ts|js|mjs)$/.test(file)).sort().map((file) =>
    resolve(join(dir, file))
  );
}
