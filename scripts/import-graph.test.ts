/**
 * The architecture's import rules, checked over the whole tree (kube checks its own with import-boss and
 * staging/publishing/import-restrictions.yaml; this is kubun's equivalent):
 * - layers: a core folder imports only folders of a lower layer (LAYERS below); core never imports the plugin
 *   folders, scripts, tests or bench; plugin folders never import core/server or core/controllers;
 * - `_`-prefixed files are private to their folder (and the folders below it);
 * - a folder with a mod.ts is entered through it from outside that folder (test kits, `testing.ts` and `testdata/`,
 *   are entered directly).
 * Tests and test kits (`*.test.ts`, `testing.ts`, `_testing.ts`, `_fixtures.ts`) may reach across layers, but
 * they too respect private files and mod.ts entry points.
 */
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

const ROOT = resolve(import.meta.dir, "..");
const SKIPPED_DIRS = new Set(["node_modules", "dist", ".git", ".ci"]);

/** Lower number = lower layer. A folder may import only folders with a smaller number (or itself). */
const LAYERS: Record<string, number> = {
  "core/runtime": 0,
  "core/log": -1,
  "core/metrics": -1,
  "core/api": 1,
  "core/config": 2,
  "core/storage": 3,
  "core/schema": 3,
  "core/auth": 3,
  "core/audit": 3,
  "core/cel": 3,
  "core/webhook": 3,
  "core/watch": 4,
  "core/apply": 4,
  "core/registry": 5,
  "core/admission": 6,
  "core/crd": 7,
  "core/controllers": 8,
  "core/aggregator": 9,
  "core/flowcontrol": 9,
  "core/server": 10,
  "plugins": 11,
  "auth-plugins": 12,
  "admission-plugins": 12,
  "plugin-set.ts": 13,
  "main.ts": 14,
};
const PLUGIN_FOLDERS = new Set(["plugins", "auth-plugins", "admission-plugins"]);
const FREE_FOLDERS = new Set(["scripts", "tests", "bench"]);

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".") || SKIPPED_DIRS.has(entry.name) || entry.name.startsWith("kubun-data")) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(path, out);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** The folder a file belongs to for the layer rule: core/<name>, a top-level folder, or main.ts. */
function component(path: string): string {
  const parts = relative(ROOT, path).split("/");
  if (parts[0] === "core" && parts.length > 2) return `core/${parts[1]}`;
  return parts[0];
}

function isTestCode(path: string): boolean {
  const name = path.split("/").pop()!;
  return name.endsWith(".test.ts") || name === "testing.ts" || name === "_testing.ts" || name === "_fixtures.ts";
}

/** Test kits and test data are entered directly: `testing.ts`, or anything under a `testdata/` folder (Go's convention). */
function isTestKit(path: string): boolean {
  return path.endsWith("/testing.ts") || path.includes("/testdata/");
}

interface Edge {
  from: string;
  to: string;
}

function relativeImports(): Edge[] {
  const edges: Edge[] = [];
  for (const from of sourceFiles(ROOT)) {
    const info = ts.preProcessFile(readFileSync(from, "utf8"), true, true);
    for (const { fileName } of info.importedFiles) {
      if (!fileName.startsWith(".")) continue;
      edges.push({ from, to: resolve(dirname(from), fileName) });
    }
  }
  return edges;
}

const EDGES = relativeImports();
const show = ({ from, to }: Edge) => `${relative(ROOT, from)} -> ${relative(ROOT, to)}`;

test("the parser sees the tree's imports (a broken walk would make every rule pass)", () => {
  expect(EDGES.length).toBeGreaterThan(2000);
  expect(EDGES.some((e) => show(e) === "main.ts -> core/server/run.ts")).toBe(true);
});

test("every folder under core/ has a layer", () => {
  const missing = readdirSync(join(ROOT, "core"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !(`core/${entry.name}` in LAYERS))
    .map((entry) => `core/${entry.name}`);
  expect(missing).toEqual([]);
});

test("layers: core imports only lower layers, never plugins, scripts, tests or bench", () => {
  const wrong = EDGES.filter((edge) => {
    if (isTestCode(edge.from)) return false;
    const from = component(edge.from);
    const to = component(edge.to);
    if (from === to || FREE_FOLDERS.has(from)) return false;
    if (FREE_FOLDERS.has(to)) return true;
    if (PLUGIN_FOLDERS.has(from) && (to === "core/server" || to === "core/controllers")) return true;
    return !(LAYERS[to] < LAYERS[from]);
  }).map(show);
  expect(wrong).toEqual([]);
});

test("`_`-prefixed files are imported only from their own folder and the folders below it", () => {
  const wrong = EDGES.filter(({ from, to }) => {
    const name = to.split("/").pop()!;
    return name.startsWith("_") && !from.startsWith(dirname(to) + "/");
  }).map(show);
  expect(wrong).toEqual([]);
});

test("a folder with a mod.ts is entered through it (test kits and test data directly)", () => {
  const wrong = EDGES.filter(({ from, to }) => {
    for (let dir = dirname(to); dir.startsWith(ROOT + "/"); dir = dirname(dir)) {
      if (from.startsWith(dir + "/")) return false;
      if (existsSync(join(dir, "mod.ts"))) return to !== join(dir, "mod.ts") && !isTestKit(to);
    }
    return false;
  }).map(show);
  expect(wrong).toEqual([]);
});
