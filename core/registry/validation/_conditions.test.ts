import { expect, test } from "bun:test";
import { validateConditions } from "./_conditions.ts";
import { messages } from "./_testing.ts";

const valid = {
  type: "DisruptionAllowed",
  status: "True",
  reason: "SufficientPods",
  message: "",
  lastTransitionTime: "2026-01-01T00:00:00Z",
};

test("ValidateConditions accepts what the disruption controller writes", () => {
  expect(validateConditions([valid, { ...valid, type: "example.com/Other", observedGeneration: 3 }], "status.conditions")).toEqual([]);
});

test("ValidateCondition: type, status, observedGeneration, lastTransitionTime and reason, in kube's words", () => {
  const bad = { type: "bad type", status: "Yes", observedGeneration: -1, reason: "9lives" };
  expect(messages(validateConditions([bad], "status.conditions"))).toEqual([
    `status.conditions[0].type: Invalid value: "bad type": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    `status.conditions[0].status: Unsupported value: "Yes": supported values: "False", "True", "Unknown"`,
    "status.conditions[0].observedGeneration: Invalid value: -1: must be greater than or equal to zero",
    "status.conditions[0].lastTransitionTime: Required value: must be set",
    `status.conditions[0].reason: Invalid value: "9lives": a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')`,
  ]);
});

test("ValidateConditions: a repeated type is a Duplicate; reason and message have byte limits", () => {
  expect(messages(validateConditions([valid, { ...valid, reason: "", message: "m".repeat(32 * 1024 + 1) }], "c"))).toEqual([
    `c[1].type: Duplicate value: "DisruptionAllowed"`,
    "c[1].reason: Required value: must be set",
    "c[1].message: Too long: must have at most 32768 bytes",
  ]);
});
