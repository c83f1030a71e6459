/**
 * Starts a Web Worker from one of kubun's own modules. Run from source, the module's URL is used as it is. In the
 * binary `bun build --compile` makes, every module's import.meta.url is the bundle's, and a worker module is an
 * extra entry point (compile.sh) found by its path from the project root.
 */
const COMPILED_BY_BUN = import.meta.url.startsWith("file:///$bunfs/");

export function startWorker(moduleUrl: URL, pathFromProjectRoot: string): Worker {
  return new Worker(COMPILED_BY_BUN ? `./${pathFromProjectRoot}` : moduleUrl.href, { type: "module" });
}
