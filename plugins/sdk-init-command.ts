/**
 * `kubun sdk init DIR`: writes a ready admission plugin project from what the binary carries (offline): the SDK
 * (types of every built-in kind, defineAdmissionPlugin, allow/deny/warn, the fixture kit), a tsconfig, an
 * example plugin with its fixtures and a README. Existing files are never overwritten.
 */
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { lazyModule } from "../core/runtime/lazy-module.ts";
import type * as SdkFiles from "./sdk-files.gen.ts";

/** ~110 KB of file texts that only `kubun sdk init` writes: not evaluated by a server's start. */
const sdkFiles = lazyModule<typeof SdkFiles>(() => require("./sdk-files.gen.ts"), import.meta.url, "./sdk-files.gen.ts");

export const SDK_USAGE = `Writes a new admission plugin project.

Usage:
  kubun sdk init DIR
`;

const TSCONFIG = {
  compilerOptions: {
    target: "ESNext",
    module: "ESNext",
    moduleResolution: "bundler",
    lib: ["ESNext"],
    types: [],
    strict: true,
    noEmit: true,
    allowImportingTsExtensions: true,
  },
  include: ["*.ts", "sdk/*.ts"],
};

const README = `# Admission plugin project

Written by \`kubun sdk init\`. \`sdk/\` holds kubun's admission SDK: the types of every built-in
Kubernetes 1.26 kind, \`defineAdmissionPlugin\`, \`allow\`/\`deny\`/\`warn\` and the fixture kit.

    kubun admission test require-labels.ts --fixtures fixtures/    # run the fixtures, no server
    tsc -p .                                                       # type-check (any TypeScript 5)
    kubun --enable-admission-plugins=$PWD/require-labels.ts         # use it
    bash compile.sh --plugin $PWD/require-labels.ts                 # in kubun's repository: bake it in

Each fixture is one YAML document: name, object, oldObject, operation, resource, namespace,
namespaceLabels, user, dryRun, pluginConfig, and expect (allowed, message, code, warnings, patch).
`;

export function parseSdkArgs(args: readonly string[]): { help: boolean; dir: string } {
  if (args.length === 0 || args.includes("-h") || args.includes("--help")) return { help: true, dir: "" };
  if (args[0] !== "init") throw new Error(`unknown command "sdk ${args[0]}"; known: sdk init`);
  if (args.length !== 2) throw new Error("sdk init needs exactly one directory");
  return { help: false, dir: args[1] };
}

/** Writes the project; returns the paths written, relative to `dir`. */
export async function initSdkProject(dir: string): Promise<string[]> {
  const files: Record<string, string> = {
    ...sdkFiles().SDK_PROJECT_FILES,
    "tsconfig.json": JSON.stringify(TSCONFIG, null, 2) + "\n",
    "README.md": README,
  };
  const existing = Object.keys(files).filter((path) => existsSync(join(dir, path)));
  if (existing.length > 0) throw new Error(`${dir} already has ${existing.join(", ")}; not overwriting`);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return Object.keys(files);
}
