/** Imports a user's plugin module by path (relative to the working directory) and returns its default export. */
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";

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
