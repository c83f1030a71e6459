import { expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { type AdmissionPluginFactory, runFixtures } from "../../core/admission/sdk/mod.ts";
import { readFixtures } from "../fixture-files.ts";

const dir = new URL("./", import.meta.url).pathname;
const policies = readdirSync(dir).filter((file) => /^[a-z].*\.ts$/.test(file) && !file.endsWith(".test.ts"));

test("every policy has fixtures", () => {
  expect(policies.length).toBe(7);
  expect(readdirSync(`${dir}fixtures`).sort()).toEqual(policies.map((file) => file.replace(/\.ts$/, ".yaml")).sort());
});

for (const file of policies) {
  test(`${file} answers each of its fixtures as expected`, async () => {
    const factory = ((await import(`./${file}`)) as { default: AdmissionPluginFactory }).default;
    const results = await runFixtures(factory, await readFixtures(`${dir}fixtures/${file.replace(/\.ts$/, ".yaml")}`));
    expect(results.filter((result) => !result.passed)).toEqual([]);
  });
}
