import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { BUILT_IN_RESOURCE_TYPES } from "../core/registry/catalog.gen.ts";
import { API_DATA_DIR, buildDefinitions, readApiData } from "./gen-schemas.ts";
import { KINDS_MODULE_PATH, renderKindsModule, renderType, typeNames } from "./gen-sdk-kinds.ts";

test("kinds.gen.ts is what scripts/gen-sdk-kinds.ts generates from ../shared", () => {
  if (!existsSync(API_DATA_DIR)) {
    console.log("kinds.gen.ts freshness check skipped: ../shared/k8s-api-1.26 is absent");
    return;
  }
  expect(readFileSync(KINDS_MODULE_PATH, "utf8")).toBe(renderKindsModule(buildDefinitions(readApiData), BUILT_IN_RESOURCE_TYPES));
});

test("a kind two groups share gets its group and version as prefix; a unique one keeps its name", () => {
  const names = typeNames(["io.k8s.api.core.v1.Event", "io.k8s.api.events.v1.Event", "io.k8s.api.core.v1.Pod"]);
  expect([...names.values()]).toEqual(["CoreV1Event", "EventsV1Event", "Pod"]);
});

test("scalars, int-or-string, maps and lists render as TypeScript types", () => {
  const names = new Map([["x.Y", "Y"]]);
  expect(renderType({ "x-kubernetes-int-or-string": true }, names)).toBe("number | string");
  expect(renderType({ oneOf: [{ type: "string" }, { type: "number" }] }, names)).toBe("string | number");
  expect(renderType({ type: "object", additionalProperties: { type: "string" } }, names)).toBe("Record<string, string>");
  expect(renderType({ type: "array", items: { ref: "x.Y" } }, names)).toBe("Array<Y>");
  expect(renderType({ type: "object", properties: { "a-b": { type: "integer" } }, required: ["a-b"] }, names)).toBe(
    '{\n  "a-b": number;\n}',
  );
});
