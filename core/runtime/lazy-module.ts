/**
 * Modules evaluated at their first use, synchronously, instead of at start.
 *
 * lazyModule: `load` must be `() => require("<literal specifier>")`. Bun's bundler turns a literal require of a
 * bundled module into that module's initializer, so the compiled binary runs the module's top level at the first
 * call. Deno has no require in ES modules: there the same `specifier` is loaded with createRequire from `base` (the
 * caller's import.meta.url).
 *
 * lazyEntryPoint: for a module compile.sh builds as an entry point of its own. JavaScriptCore reads nearly all of the
 * main bundle's bytecode at start, a lazily run module's too; an entry point's bytecode is read at its first use
 * only (bench/profiles/memory.md). It must share no state with the main bundle: it gets its own copy of what it
 * imports.
 */
import { createRequire } from "node:module";

/** In the binary `bun build --compile` makes, import.meta.url is the bundle's, under /$bunfs/root/. */
const COMPILED_BY_BUN = import.meta.url.startsWith("file:///$bunfs/");

function memoized<T>(load: () => unknown): () => T {
  let loaded: { module: T } | undefined;
  return () => (loaded ??= { module: load() as T }).module;
}

export function lazyModule<T>(load: () => unknown, base: string, specifier: string): () => T {
  return memoized(() => typeof require === "function" ? load() : createRequire(base)(specifier));
}

/** `pathFromProjectRoot`: the module as compile.sh names it; `specifier` from `base` when run from source. */
export function lazyEntryPoint<T>(pathFromProjectRoot: string, base: string, specifier: string): () => T {
  return memoized(() =>
    COMPILED_BY_BUN ? createRequire(import.meta.url)(`./${pathFromProjectRoot.replace(/\.ts$/, ".js")}`) : createRequire(base)(specifier)
  );
}
