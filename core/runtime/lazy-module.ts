/**
 * A module evaluated at its first use, synchronously, instead of at start. `load` must be
 * `() => require("<literal specifier>")`: Bun's bundler turns a literal require of a bundled module into that module's
 * initializer, so the compiled binary runs the module's top level at the first call. Deno has no require in ES
 * modules: there the same `specifier` is loaded with createRequire from `base` (the caller's import.meta.url).
 */
import { createRequire } from "node:module";

export function lazyModule<T>(load: () => unknown, base: string, specifier: string): () => T {
  let loaded: { module: T } | undefined;
  return () => (loaded ??= { module: (typeof require === "function" ? load() : createRequire(base)(specifier)) as T }).module;
}
