import { expect, test } from "bun:test";
import { warningFields } from "./_warning-fields.ts";

test("warningFields splits a joined value into one field per warning, as recorder.AddWarning writes them", () => {
  expect(warningFields('299 - "first", 299 - "second"')).toEqual(['299 - "first"', '299 - "second"']);
});

test("warningFields keeps commas and escaped quotes inside a warn-text or warn-date", () => {
  const texts = ['299 - "a, b \\"c, d\\""', '299 agent "e" "Thu, 26 Nov 2026 17:00:00 GMT"', '199 - "\\\\ , f"'];
  expect(warningFields(texts.join(", "))).toEqual(texts);
});

test("warningFields answers a single warning as it is and drops empty list elements", () => {
  expect(warningFields('299 - "only"')).toEqual(['299 - "only"']);
  expect(warningFields(' , 299 - "x" ,')).toEqual(['299 - "x"']);
});
