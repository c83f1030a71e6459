import { expect, test } from "bun:test";
import { statusErrorOf } from "../../api/testing.ts";
import { builtInCatalog } from "../../registry/catalog.ts";
import { goMarshal, goPrintValue } from "../../api/go-values.ts";
import { checkPatchedObject } from "./patch-type-errors.ts";

const deployments = builtInCatalog().byGroupVersionResource("apps", "v1", "deployments")!;
const deployment = (spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "d", ...metadata },
  spec,
});

test("a strategic merge patch leaving a value its Go type cannot hold is kube's 422 on \"patch\" with the converter's words (applyPatchToObject)", () => {
  const cases: [Record<string, unknown>, unknown, string][] = [
    [deployment({ replicas: "x" }), { spec: { replicas: "x" } }, "unrecognized type: int32"],
    [deployment({}, { labels: "x" }), { metadata: { labels: "x" } }, "cannot restore map from string"],
    [deployment({ template: "x" }), { spec: { template: "x" } }, "cannot restore struct from: string"],
    [deployment({ template: { spec: { containers: { a: 1 } } } }), {}, "cannot restore slice from map"],
    [deployment({ replicas: 1.5 }), {}, "cannot convert float64 to int32"],
    [deployment({ paused: "yes" }), {}, "unrecognized type: bool"],
    [deployment({ template: { spec: { containers: [{ name: "c", image: 5 }] } } }), {}, "cannot convert int64 to string"],
  ];
  for (const [patched, patch, detail] of cases) {
    const error = statusErrorOf(() => checkPatchedObject(deployments, patched as never, "application/strategic-merge-patch+json", patch));
    expect({ detail, code: error.code, message: error.message }).toEqual({
      detail,
      code: 422,
      message: ` "" is invalid: patch: Invalid value: ${JSON.stringify(goPrintValue(patch))}: ${detail}`,
    });
  }
});

test("a JSON or merge patch leaving a wrongly typed value is kube's 422 on \"patch\" with the patched JSON and the decoder's words (applyPatchToCurrentObject)", () => {
  const patched = deployment({ replicas: "x" }, { labels: { a: "<b>" } });
  for (const mediaType of ["application/merge-patch+json", "application/json-patch+json"]) {
    const error = statusErrorOf(() => checkPatchedObject(deployments, patched as never, mediaType, {}));
    const detail = "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32";
    expect({ mediaType, code: error.code, message: error.message }).toEqual({
      mediaType,
      code: 422,
      message: ` "" is invalid: patch: Invalid value: ${JSON.stringify(goMarshal(patched))}: ${detail}`,
    });
  }
  expect(goMarshal(patched)).toBe(
    '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"labels":{"a":"\\u003cb\\u003e"},"name":"d"},"spec":{"replicas":"x"}}',
  );
});
