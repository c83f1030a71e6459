/**
 * `kubun admission test PLUGIN --fixtures DIR`: runs an admission plugin against YAML fixtures with no server and
 * prints one row per fixture (FIXTURE, RESULT PASS/FAIL, REASON), as `kyverno test` and `gator verify` report;
 * the exit code is 1 when any fixture fails.
 */
import type { AdmissionPluginFactory, FixtureResult } from "../core/admission/sdk/mod.ts";
import { runFixtures } from "../core/admission/sdk/mod.ts";
import { readFixtures } from "./fixture-files.ts";
import { importPluginModule } from "./loader.ts";

export const ADMISSION_TEST_USAGE = `Runs an admission plugin against fixtures, with no server.

Usage:
  kubun admission test PLUGIN --fixtures DIR

Each YAML document in DIR is one fixture: name, object, oldObject, operation, resource, namespace,
namespaceLabels, user, dryRun, pluginConfig, and expect (allowed, message, code, warnings, patch).
Exits 1 when a fixture's answer differs from its expectation.
`;

export interface AdmissionTestCommand {
  help: boolean;
  plugin: string;
  fixtures: string;
}

export function parseAdmissionTestArgs(args: readonly string[]): AdmissionTestCommand {
  if (args.length === 0 || args.includes("-h") || args.includes("--help")) return { help: true, plugin: "", fixtures: "" };
  if (args[0] !== "test") throw new Error(`unknown command "admission ${args[0]}"; known: admission test`);
  let plugin = "";
  let fixtures = "";
  for (let i = 1; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--fixtures") fixtures = args[++i] ?? "";
    else if (arg.startsWith("--fixtures=")) fixtures = arg.slice("--fixtures=".length);
    else if (arg.startsWith("-")) throw new Error(`unknown flag: ${arg}`);
    else if (plugin) throw new Error(`unexpected argument: ${arg}`);
    else plugin = arg;
  }
  if (!plugin) throw new Error("admission test needs a plugin module path");
  if (!fixtures) throw new Error("admission test needs --fixtures DIR");
  return { help: false, plugin, fixtures };
}

/** Runs the command: the report to print and the exit code. */
export async function runAdmissionTest(command: AdmissionTestCommand): Promise<{ output: string; exitCode: number }> {
  const factory = await importPluginModule<AdmissionPluginFactory>(command.plugin, "admission");
  const results = await runFixtures(factory, await readFixtures(command.fixtures));
  const failed = results.filter((result) => !result.passed).length;
  const summary = `\n${results.length - failed} passed, ${failed} failed\n`;
  return { output: resultTable(results) + summary, exitCode: failed > 0 ? 1 : 0 };
}

export function resultTable(results: readonly FixtureResult[]): string {
  const rows = [["FIXTURE", "RESULT", "REASON"], ...results.map((r) => [r.fixture, r.passed ? "PASS" : "FAIL", r.reason])];
  const widths = [0, 1].map((column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row) => `${row[0].padEnd(widths[0])}   ${row[1].padEnd(widths[1])}   ${row[2]}`.trimEnd()).join("\n") + "\n";
}
