/**
 * Where a worker's entry module is. Run from source it sits beside the module that starts it; in a
 * `bun build --compile` executable it is an extra entry point of the build (compile.sh names it), stored under
 * /$bunfs/root/ at its path from the project root, while the importer's URL is the executable's own.
 */
export function workerEntryUrl(importerUrl: string, fromImporter: string, fromProjectRoot: string): string {
  if (importerUrl.startsWith("file:///$bunfs/")) return `/$bunfs/root/${fromProjectRoot}`;
  return new URL(fromImporter, importerUrl).href;
}
