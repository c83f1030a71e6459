import { expect, test } from "bun:test";
import process from "node:process";
import { versionInfo } from "./version.ts";

test("versionInfo() reports 1.26 with a semver gitVersion kubectl can parse", () => {
  const info = versionInfo();
  expect([info.major, info.minor]).toEqual(["1", "26"]);
  expect(info.gitVersion).toMatch(/^v1\.26\.\d+(-[0-9A-Za-z.-]+)?$/);
  expect(Object.keys(info)).toEqual([
    "major",
    "minor",
    "gitVersion",
    "gitCommit",
    "gitTreeState",
    "buildDate",
    "goVersion",
    "compiler",
    "platform",
  ]);
});

test("versionInfo() names the running runtime and platform and takes build facts from options", () => {
  const info = versionInfo({ gitCommit: "abc123", buildDate: "2024-03-14T00:00:00Z" });
  expect(info.goVersion).toBe(`bun-${process.versions.bun}`);
  expect(info.platform).toStartWith(`${process.platform}/`);
  expect([info.gitCommit, info.buildDate]).toEqual(["abc123", "2024-03-14T00:00:00Z"]);
});
