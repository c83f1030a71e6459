/**
 * Reads admission fixtures from YAML: every `.yaml`/`.yml` file of a directory (or one file), each document one
 * fixture, checked against the Fixture shape with the field paths a configuration file error names.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import * as v from "valibot";
import { parseAllDocuments } from "yaml";
import { parseConfig } from "../core/config/mod.ts";
import type { Fixture } from "../core/admission/sdk/mod.ts";

const labels = v.record(v.string(), v.string());
const object = v.looseObject({ apiVersion: v.optional(v.string()), kind: v.optional(v.string()), metadata: v.looseObject({}) });

const FIXTURE = v.strictObject({
  name: v.string(),
  operation: v.optional(v.picklist(["CREATE", "UPDATE", "DELETE", "CONNECT"])),
  object: v.optional(object),
  oldObject: v.optional(object),
  resource: v.optional(v.string()),
  namespace: v.optional(v.string()),
  namespaceLabels: v.optional(labels),
  user: v.optional(v.strictObject({
    username: v.string(),
    uid: v.optional(v.string()),
    groups: v.optional(v.array(v.string()), []),
    extra: v.optional(v.record(v.string(), v.array(v.string()))),
  })),
  dryRun: v.optional(v.boolean()),
  pluginConfig: v.optional(v.unknown()),
  expect: v.strictObject({
    allowed: v.boolean(),
    message: v.optional(v.string()),
    code: v.optional(v.number()),
    warnings: v.optional(v.array(v.string())),
    patch: v.optional(v.array(v.looseObject({ op: v.picklist(["add", "remove", "replace"]), path: v.string() }))),
  }),
});

/** The fixtures of `path` (a directory: its YAML files in name order), in file and document order. */
export async function readFixtures(path: string): Promise<Fixture[]> {
  const info = await stat(path).catch((error: Error) => {
    throw new Error(`cannot read fixtures ${path}: ${error.message}`);
  });
  const files = info.isDirectory()
    ? (await readdir(path)).filter((name) => /\.ya?ml$/.test(name)).sort().map((name) => join(path, name))
    : [path];
  const fixtures: Fixture[] = [];
  for (const file of files) {
    const documents = parseAllDocuments(await readFile(file, "utf8"));
    for (const [index, document] of (Array.isArray(documents) ? documents : [documents]).entries()) {
      if (document.errors.length > 0) throw new Error(`${file}: ${document.errors[0].message}`);
      const value = document.toJS();
      if (value === null) continue;
      fixtures.push(parseConfig(FIXTURE, value, `${file} (document ${index + 1})`) as Fixture);
    }
  }
  if (fixtures.length === 0) throw new Error(`no fixtures in ${path}`);
  return fixtures;
}
