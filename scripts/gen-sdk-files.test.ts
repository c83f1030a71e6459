import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { renderSdkFilesModule, SDK_FILES_MODULE_PATH, sdkProjectFiles } from "./gen-sdk-files.ts";

test("sdk-files.gen.ts carries the current SDK sources and example (run bun scripts/gen-sdk-files.ts after changing them)", () => {
  expect(readFileSync(SDK_FILES_MODULE_PATH, "utf8")).toBe(renderSdkFilesModule(sdkProjectFiles()));
});

test("the project's example plugin imports the project's SDK copy", () => {
  expect(sdkProjectFiles()["require-labels.ts"]).toContain('from "./sdk/mod.ts"');
});
