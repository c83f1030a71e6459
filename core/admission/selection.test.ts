import { expect, test } from "bun:test";
import { selectAdmissionPlugins } from "./selection.ts";

const SET = {
  order: ["A", "B", "C", "Missing", "Webhook", "Quota"],
  defaults: ["A", "Missing", "Quota"],
  last: ["Webhook", "Quota"],
  unimplemented: ["Missing"],
};

test("selectAdmissionPlugins() keeps the recommended order whatever the flag order", () => {
  expect(selectAdmissionPlugins(SET, { enable: ["C", "B"], disable: [], custom: [] })).toEqual(["A", "B", "C", "Quota"]);
});

test("selectAdmissionPlugins() drops disabled defaults", () => {
  expect(selectAdmissionPlugins(SET, { enable: [], disable: ["A"], custom: [] })).toEqual(["Quota"]);
});

test("selectAdmissionPlugins() puts custom plugins after the built-ins and before the webhooks and quota", () => {
  expect(selectAdmissionPlugins(SET, { enable: ["Webhook"], disable: [], custom: ["./x.ts"] })).toEqual([
    "A",
    "./x.ts",
    "Webhook",
    "Quota",
  ]);
});

test("selectAdmissionPlugins() fails on an unknown name with AdmissionOptions.Validate's message", () => {
  expect(() => selectAdmissionPlugins(SET, { enable: ["Nope"], disable: [], custom: [] })).toThrow(
    'enable-admission-plugins plugin "Nope" is unknown',
  );
  expect(() => selectAdmissionPlugins(SET, { enable: [], disable: ["Nope"], custom: [] })).toThrow(
    'disable-admission-plugins plugin "Nope" is unknown',
  );
});

test("selectAdmissionPlugins() fails when a name is both enabled and disabled", () => {
  expect(() => selectAdmissionPlugins(SET, { enable: ["B"], disable: ["B"], custom: [] })).toThrow(
    "B in enable-admission-plugins and disable-admission-plugins overlapped",
  );
});

test("an unimplemented default never runs, and disabling it is accepted", () => {
  expect(selectAdmissionPlugins(SET, { enable: [], disable: [], custom: [] })).toEqual(["A", "Quota"]);
  expect(selectAdmissionPlugins(SET, { enable: [], disable: ["Missing"], custom: [] })).toEqual(["A", "Quota"]);
});

test("enabling an unimplemented name fails unless it is accepted as a no-op by name", () => {
  expect(() => selectAdmissionPlugins(SET, { enable: ["Missing"], disable: [], custom: [] })).toThrow(
    'enable-admission-plugins plugin "Missing" is not implemented by kubun; drop it, or accept it as a no-op with --accept-unimplemented-admission-plugins=Missing',
  );
  expect(selectAdmissionPlugins(SET, { enable: ["Missing"], disable: [], custom: [], acceptUnimplemented: ["Missing"] })).toEqual([
    "A",
    "Quota",
  ]);
});
