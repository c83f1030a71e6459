import { expect, test } from "bun:test";
import { ConfigFileError } from "../config/mod.ts";
import { StatusError } from "../api/errors.ts";
import { readValidationActions, refuses } from "./enforcement.ts";

test("readValidationActions() defaults to Deny and hands the plugin its configuration without the field", () => {
  expect(readValidationActions({ label: "team" }, "f")).toEqual({ actions: ["Deny"], pluginConfig: { label: "team" } });
  expect(readValidationActions(undefined, "f")).toEqual({ actions: ["Deny"], pluginConfig: undefined });
  expect(readValidationActions({ validationActions: ["Warn", "Audit"], label: "x" }, "f")).toEqual({
    actions: ["Warn", "Audit"],
    pluginConfig: { label: "x" },
  });
});

test("readValidationActions() refuses what kube's binding validation refuses: unknown, duplicate, empty, Deny with Warn", () => {
  const problem = (actions: unknown) => {
    try {
      readValidationActions({ validationActions: actions }, "admission.yaml: plugins[0].configuration");
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigFileError);
      return (error as Error).message;
    }
    throw new Error("accepted");
  };
  expect(problem(["Block"])).toContain('validationActions[0]: Unsupported value: "Block": supported values: "Deny", "Warn", "Audit"');
  expect(problem(["Audit", "Audit"])).toContain('validationActions: Duplicate value: ["Audit","Audit"]');
  expect(problem([])).toContain("validationActions: Required value");
  expect(problem(["Deny", "Warn"])).toContain("Deny and Warn may not be used together");
});

test("refuses(): a refusal (4xx) stops the request only under Deny; a failure (5xx) always does", () => {
  const denial = new StatusError(403, "Forbidden", "no");
  const failure = new StatusError(504, "Timeout", "slow");
  expect(refuses(["Deny"], denial)).toBe(true);
  expect(refuses(["Warn", "Audit"], denial)).toBe(false);
  expect(refuses(["Audit"], failure)).toBe(true);
});
