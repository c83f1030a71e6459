import { expect, test } from "bun:test";
import { selectAdmissionPlugins } from "./selection.ts";

const SET = { order: ["A", "B", "C", "Webhook", "Quota"], defaults: ["A", "Quota"], last: ["Webhook", "Quota"] };

test("selectAdmissionPlugins() keeps the recommended order whatever the flag order", () => {
  expect(selectAdmissionPlugins(SET, { enable: ["C", "B"], disable: [], custom: [] })).toEqual(["A", "B", "C", "Quota"]);
});

test("selectAdmissionPlugins() drops disabled defaults", () => {
  expect(selectAdmissionPlugins(SET, { enable: [], disable: ["A"], custom: [] })).toEqual(["Quota"]);
});

test("selectAdmissionPlugins() puts custom plugins after the built-ins and before the webhooks and quota", () => {
  expect(selectAdmissionPlugins(SET, { enable: ["Webhook"], disable: [], custom: ["./x.ts"] })).toEqual(["A", "./x.ts", "Webhook", "Quota"]);
});

test("selectAdmissionPlugins() fails on an unknown name, listing the known ones", () => {
  expect(() => selectAdmissionPlugins(SET, { enable: ["Nope"], disable: [], custom: [] })).toThrow('admission plugin "Nope" is unknown; known: A, B, C, Quota, Webhook');
});

test("selectAdmissionPlugins() fails when a name is both enabled and disabled", () => {
  expect(() => selectAdmissionPlugins(SET, { enable: ["B"], disable: ["B"], custom: [] })).toThrow("B in enable-admission-plugins and disable-admission-plugins overlapped");
});
