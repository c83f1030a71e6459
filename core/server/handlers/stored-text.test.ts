import { expect, test } from "bun:test";
import { respondStoredText } from "./stored-text.ts";

const stored = {
  key: "/core/configmaps/default/a",
  value: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"default"},"data":{"k":"v"}}',
  createRevision: 3,
  modRevision: 7,
};

test("a stored version's answer is its text with the resourceVersion put in and kube's newline, each time it is answered", async () => {
  const expected =
    '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"resourceVersion":"7","name":"a","namespace":"default"},"data":{"k":"v"}}\n';
  for (const status of [200, 200, 201]) {
    const response = respondStoredText(stored, status);
    expect([response.status, response.headers.get("content-type"), await response.text()]).toEqual([status, "application/json", expected]);
  }
  const next = { ...stored, value: stored.value.replace('"v"}', '"w"}'), modRevision: 8 };
  expect(await respondStoredText(next, 200).text()).toBe(expected.replace('"7"', '"8"').replace('"v"}', '"w"}'));
});
