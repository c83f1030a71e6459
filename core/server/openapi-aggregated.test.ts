import { expect, test } from "bun:test";
import { aggregatedV3, withAggregatedV2 } from "./openapi-aggregated.ts";

test("aggregated v2 paths and definitions are added; this server's own win on a clash", () => {
  const local = { swagger: "2.0", paths: { "/api/v1/pods": { get: {} } }, definitions: { Pod: { type: "object" } } };
  const merged = withAggregatedV2(local, [{
    v2: {
      paths: { "/apis/w/v1/flunders": { get: {} }, "/api/v1/pods": { post: {} } },
      definitions: { Flunder: {}, Pod: { type: "string" } },
    },
    v3: new Map(),
  }]);
  expect(Object.keys(merged.paths as object)).toEqual(["/api/v1/pods", "/apis/w/v1/flunders"]);
  expect(merged.definitions).toEqual({ Pod: { type: "object" }, Flunder: {} });
  expect(merged.swagger).toBe("2.0");
});

test("aggregated v3 documents join the index only for group/versions this server does not serve", () => {
  const documents = [{ v3: new Map([["apis/w/v1", { openapi: "3.0.0" }], ["apis/apps/v1", { openapi: "x" }]]) }];
  expect([...aggregatedV3(documents, ["apis/apps/v1"]).keys()]).toEqual(["apis/w/v1"]);
});
