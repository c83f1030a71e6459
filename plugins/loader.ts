/**
 * Loads plugins: a built-in name resolves through its catalog's literal `import()` (so `bun build --compile`
 * bundles it); a module path (./x.ts, /abs/x.ts) is imported from disk at run time. Unknown names fail at
 * start-up listing the known ones.
 */
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";

export type Catalog<T> = Record<string, () => Promise<{ default: T }>>;

export function isModulePath(spec: string): boolean {
  return spec.startsWith("./") || spec.startsWith("../") || isAbsolute(spec) || /\.(ts|js|mjs)$/.test(spec);
}

/** Imports a user's plugin module by path (relative to the working directory) and returns its default export. */
export async function importPluginModule<T>(path: string, kind: string): Promise<T> {
  const absolute = isAbsolute(path) ? path : resolve(process.cwd(), path);
  let module: { default?: T };
  try {
    module = await import(pathToFileURL(absolute).href);
  } catch (error) {
    throw new Error(`cannot load ${kind} plugin ${path}: ${(error as Error).message}`, { cause: error });
  }
  if (typeof module.default !== "function") throw new Error(`${kind} plugin ${path} must default-export a factory function`);
  return module.default;
}

export async function loadPlugin<T>(spec: string, catalog: Catalog<T>, kind: string): Promise<T> {
  if (isModulePath(spec)) return importPluginModule<T>(spec, kind);
  const load = catalog[spec];
  if (!load) throw new Error(`unknown ${kind} plugin "${spec}"; known: ${Object.keys(catalog).sort().join(", ")}`);
  return (await load()).default;
}
