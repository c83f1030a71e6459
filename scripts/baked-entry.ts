/**
 * Prints the entry module compile.sh builds a binary with baked-in admission plugins from: one literal import per
 * plugin (absolute paths as arguments), registered under its file name without extension, then main.ts.
 * Run: bun scripts/baked-entry.ts /abs/policy/a.ts /abs/policy/b.ts
 */
import { basename, extname } from "node:path";

export function bakedEntryModule(paths: readonly string[]): string {
  const names = paths.map((path) => basename(path, extname(path)));
  const duplicate = names.find((name, index) => names.indexOf(name) !== index);
  if (duplicate) throw new Error(`two baked plugins are named "${duplicate}"`);
  return [
    'import { bakeAdmissionPlugins } from "../plugins/baked.ts";',
    ...paths.map((path, index) => `import plugin${index} from ${JSON.stringify(path)};`),
    `bakeAdmissionPlugins({ ${names.map((name, index) => `${JSON.stringify(name)}: plugin${index}`).join(", ")} });`,
    'await import("../main.ts");',
    "",
  ].join("\n");
}

if (import.meta.main) process.stdout.write(bakedEntryModule(process.argv.slice(2)));
