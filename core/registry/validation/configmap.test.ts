import { expect, test } from "bun:test";
import { Buffer } from "node:buffer";
import { messages, object } from "./_testing.ts";
import { validateConfigMap, validateConfigMapUpdate } from "./configmap.ts";

const b64 = (text: string) => Buffer.from(text).toString("base64");

test("validateConfigMap() refuses keys in both data and binaryData", () => {
  expect(messages(validateConfigMap(object({ data: { k: "v" }, binaryData: { k: b64("v") } })))).toEqual([
    'data[k]: Invalid value: "k": duplicate of key present in binaryData',
    'binaryData[k]: Invalid value: "k": duplicate of key present in data',
  ]);
  expect(messages(validateConfigMap(object({ data: { "..x": "v" } })))).toEqual([
    "data[..x]: Invalid value: \"..x\": must not start with '..'",
  ]);
});

test("validateConfigMapUpdate() freezes data and binaryData of an immutable ConfigMap", () => {
  const old = object({ immutable: true, data: { k: "v" } });
  expect(messages(validateConfigMapUpdate(object({ immutable: true, data: { k: "w" } }), old))).toEqual([
    "data: Forbidden: field is immutable when `immutable` is set",
  ]);
  expect(validateConfigMapUpdate(object({ data: { k: "w" } }), object({ data: { k: "v" } }))).toEqual([]);
});

test("validateConfigMap() counts data and binaryData bytes together and reports over 1 MiB on kube's root path []", () => {
  const half = "x".repeat(512 * 1024);
  expect(validateConfigMap(object({ data: { a: half }, binaryData: { b: b64(half) } }))).toEqual([]);
  expect(messages(validateConfigMap(object({ data: { a: half }, binaryData: { b: b64(`${half}!`) } })))).toEqual([
    "[]: Too long: must have at most 1048576 bytes",
  ]);
});
