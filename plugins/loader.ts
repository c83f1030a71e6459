/**
 * Loads plugins: a built-in name resolves through its catalog's literal `import()` (so `bun build --compile`
 * bundles it); a module path (./x.ts, /abs/x.ts) is imported from disk at run time. Unknown names fail at
 * start-up listing the known ones.
 */
import { isAbsolute } from "node:path";
import { importPluginModule } from "../core/runtime/plugin-module.ts";

export { importPluginModule };

export type Catalog<T> = Record<string, () => Promise<{ default: T }>>;

export function isModulePath(spec: string): boolean {
  return spec.startsWith("./") || spec.startsWith("../") || isAbsolute(spec) || /\.(ts|js|mjs)$/.test(spec);
}

export async function loadPlugin<T>(spec: string, catalog: Catalog<T>, kind: string): Promise<T> {
  if (isModulePath(spec)) return importPluginModule<T>(spec, kind);
  const load = catalog[spec];
  if (!load) throw new Error(`unknown ${kind} plugin "${spec}"; known: ${Object.keys(catalog).sort().join(", ")}`);
  return (await load()).default;
}
