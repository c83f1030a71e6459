import { expect, test } from "bun:test";
import { bakedEntryModule } from "./baked-entry.ts";

test("the baked entry imports each plugin literally, registers it by file name, then runs main.ts", () => {
  expect(bakedEntryModule(["/p/a.ts", "/q/b-c.js"])).toBe(
    [
      'import { bakeAdmissionPlugins } from "../plugins/baked.ts";',
      'import plugin0 from "/p/a.ts";',
      'import plugin1 from "/q/b-c.js";',
      'bakeAdmissionPlugins({ "a": plugin0, "b-c": plugin1 });',
      'await import("../main.ts");',
      "",
    ].join("\n"),
  );
});

test("two plugins with one file name cannot both be baked", () => {
  expect(() => bakedEntryModule(["/p/a.ts", "/q/a.ts"])).toThrow('two baked plugins are named "a"');
});
