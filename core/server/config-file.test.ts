import { expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readConfigFile } from "./config-file.ts";

const file = (text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), "kubun-config-")), "config.yaml");
  writeFileSync(path, text);
  return path;
};

test("readConfigFile() reads scalar values as command-line text", () => {
  expect(readConfigFile(file("secure-port: 7443\nanonymous-auth: false\nbind-address: 0.0.0.0\n"))).toEqual(
    new Map([["secure-port", "7443"], ["anonymous-auth", "false"], ["bind-address", "0.0.0.0"]]),
  );
  expect(readConfigFile(file(""))).toEqual(new Map());
});

test("readConfigFile() names the file, the key and the reason for a value that is not a scalar", () => {
  const path = file("secure-port: [1, 2]\n");
  expect(() => readConfigFile(path)).toThrow(`config file ${path}: secure-port: Invalid value: [1,2]: must be a scalar value`);
  expect(() => readConfigFile(file("- a\n- b\n"))).toThrow(/: Invalid value: \["a","b"\]: must be a mapping of flag names to values$/);
});
