import { expect, test } from "bun:test";
import { mergeValues } from "./merge.ts";
import { typeForKind } from "./schema-type.ts";

const POD = typeForKind("", "v1", "Pod");
const names = (value: unknown) => (value as { spec: { containers: { name: string }[] } }).spec.containers.map((c) => c.name);

test("keyed list merge keeps live-only items in place and follows the applied order for shared ones", () => {
  const live = { spec: { containers: [{ name: "a" }, { name: "x" }, { name: "b" }] } };
  const config = { spec: { containers: [{ name: "b" }, { name: "a" }, { name: "c" }] } };
  expect(names(mergeValues(live, config, POD))).toEqual(["x", "b", "a", "c"]);
});

test("an applied null leaves the field unset; atomic values are replaced whole", () => {
  const live = { spec: { nodeSelector: { a: "1" }, containers: [{ name: "a", command: ["x", "y"] }] } };
  const merged = mergeValues(live, { spec: { nodeSelector: null, containers: [{ name: "a", command: ["z"] }] } }, POD);
  expect(merged).toEqual({ spec: { containers: [{ name: "a", command: ["z"] }] } });
});
