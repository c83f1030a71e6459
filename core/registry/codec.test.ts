import { expect, test } from "bun:test";
import { type KubeObject, withoutTypeMeta } from "../api/types.ts";
import { decodeStored, encodeForStorage, storedListItemText, storedTextWithVersion, withEnvelopeFirst } from "./codec.ts";

const kv = (value: string) => ({ key: "/k", value, createRevision: 3, modRevision: 42 });

// Stored texts are JSON.stringify output (encodeForStorage).
const stored = [
  JSON.stringify({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "a", managedFields: [{ manager: "m" }] },
    data: { k: 'é"\n\u2028<' },
  }),
  '{"apiVersion":"v1","kind":"ConfigMap","metadata":{},"data":{}}',
  '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"terminationGracePeriodSeconds":9007199254740993}}',
  '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"kind-first"}}',
  '{"apiVersion":"v\\"1","kind":"ConfigMap","metadata":{"name":"escaped-head"}}',
];

test("storedTextWithVersion() is JSON.stringify(decodeStored()) without parsing: empty metadata, int64 beyond 2^53, escapes, unusual heads", () => {
  for (const value of stored) expect(storedTextWithVersion(kv(value))).toBe(JSON.stringify(decodeStored(kv(value))));
  expect(storedTextWithVersion(kv(stored[2]!))).toContain(
    '"resourceVersion":"42","name":"p"},"spec":{"terminationGracePeriodSeconds":9007199254740993}',
  );
});

test("storedListItemText() is a typed list item's text (runtime.Scheme setTargetKind types the list only): no apiVersion or kind", () => {
  for (const value of stored) {
    expect(storedListItemText(kv(value))).toBe(JSON.stringify(withoutTypeMeta(decodeStored(kv(value)))));
  }
  expect(storedListItemText(kv(stored[1]!))).toBe('{"metadata":{"resourceVersion":"42"},"data":{}}');
});

test("encodeForStorage() stores no resourceVersion and keeps every other field in its order, with or without one given", () => {
  const object = (metadata: Record<string, unknown>) => ({ apiVersion: "v1", kind: "ConfigMap", metadata, data: { k: "v" } });
  const expected = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","uid":"u"},"data":{"k":"v"}}';
  expect(encodeForStorage(object({ name: "a", uid: "u" }))).toBe(expected);
  expect(encodeForStorage(object({ name: "a", resourceVersion: "7", uid: "u" }))).toBe(expected);
  expect(encodeForStorage(object({ name: "a", resourceVersion: undefined, uid: "u" }))).toBe(expected);
});

test("withEnvelopeFirst() keeps an object that leads with apiVersion, kind and metadata; any other is copied into that order", () => {
  const leading = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a" }, data: { k: "v" } };
  expect(withEnvelopeFirst(leading, "v1", "ConfigMap")).toBe(leading);
  const trailing = { metadata: { name: "a" }, data: { k: "v" }, kind: "ConfigMap", apiVersion: "v1" };
  const reordered = withEnvelopeFirst(trailing, "v1", "ConfigMap");
  expect(reordered).not.toBe(trailing);
  expect(JSON.stringify(reordered)).toBe(JSON.stringify(leading));
  const otherVersion = withEnvelopeFirst({ ...leading, apiVersion: "v2" }, "v1", "ConfigMap");
  expect(JSON.stringify(otherVersion)).toBe(JSON.stringify(leading));
  expect(Object.keys(withEnvelopeFirst({ apiVersion: "v1", kind: "ConfigMap" } as KubeObject, "v1", "ConfigMap"))).toEqual([
    "apiVersion",
    "kind",
    "metadata",
  ]);
});
