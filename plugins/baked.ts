/**
 * Admission plugins baked into a custom binary by `bash compile.sh --plugin PATH`: the entry module compile.sh
 * generates imports each plugin literally (so `bun build --compile` bundles it) and registers it here, under its
 * file name without extension, before main.ts runs. `--enable-admission-plugins=<name>` then enables it.
 */
import type { AdmissionPluginFactory } from "../core/admission/types.ts";

const baked = new Map<string, AdmissionPluginFactory>();

export function bakeAdmissionPlugins(plugins: Record<string, AdmissionPluginFactory>): void {
  for (const [name, factory] of Object.entries(plugins)) {
    if (typeof factory !== "function") throw new Error(`baked admission plugin ${name} must default-export a factory function`);
    baked.set(name, factory);
  }
}

export function bakedAdmissionPlugin(name: string): AdmissionPluginFactory | undefined {
  return baked.get(name);
}
