import { expect, test } from "bun:test";
import { memberPaths, setFromPaths } from "./field-set.ts";
import { type OwnershipScope, withinScope } from "./scope.ts";

const written = setFromPaths([
  ["f:spec", "f:replicas"],
  ["f:status", "f:replicas"],
  ["f:metadata", "f:labels", "f:app"],
  ["f:metadata", "f:annotations", "f:note"],
]);
const scope = (subresource: string, statusResetMetadata?: OwnershipScope["statusResetMetadata"]): OwnershipScope => ({
  apiVersion: "apps/v1",
  subresource,
  hasStatusSubresource: true,
  statusResetMetadata,
  type: { kind: "any" } as unknown as OwnershipScope["type"],
  converter: { convert: () => undefined },
});

test("a status write owns status and the metadata its strategy's GetResetFields leaves (rsStatusStrategy: only spec is reset)", () => {
  expect(memberPaths(withinScope(written, scope("status", [])))).toEqual([
    ["f:metadata", "f:annotations", "f:note"],
    ["f:metadata", "f:labels", "f:app"],
    ["f:status", "f:replicas"],
  ]);
});

test("a status write owns no metadata the reset fields name: labels (deploymentStatusStrategy), or all of it (APIService)", () => {
  expect(memberPaths(withinScope(written, scope("status", ["labels"])))).toEqual([
    ["f:metadata", "f:annotations", "f:note"],
    ["f:status", "f:replicas"],
  ]);
  expect(memberPaths(withinScope(written, scope("status", "all")))).toEqual([["f:status", "f:replicas"]]);
  expect(memberPaths(withinScope(written, scope("status")))).toEqual([["f:status", "f:replicas"]]);
});

test("a main-resource write of a kind with a status subresource owns everything but status", () => {
  expect(memberPaths(withinScope(written, scope("")))).toEqual([
    ["f:metadata", "f:annotations", "f:note"],
    ["f:metadata", "f:labels", "f:app"],
    ["f:spec", "f:replicas"],
  ]);
});
