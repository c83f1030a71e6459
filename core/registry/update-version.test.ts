import { expect, test } from "bun:test";
import { statusErrorOf } from "../api/testing.ts";
import type { KubeObject } from "../api/types.ts";
import { builtInCatalog } from "./catalog.ts";
import { checkUpdateVersion } from "./update-version.ts";

const leases = builtInCatalog().byGroupVersionResource("coordination.k8s.io", "v1", "leases")!;
const lease = (resourceVersion?: string): KubeObject => ({
  metadata: { name: "l", ...(resourceVersion !== undefined ? { resourceVersion } : {}) },
});

test('resourceVersion "0" is no version: an unconditional update where allowed (kube\'s Versioner.ObjectResourceVersion)', () => {
  const next = lease("0");
  checkUpdateVersion(leases, next, lease("7"), false);
  expect(next.metadata.resourceVersion).toBeUndefined();
});

test("an unconditional PUT of a kind without AllowUnconditionalUpdate is a 422; a stale version a 409 (kube's Store.Update)", () => {
  const refused = statusErrorOf(() => checkUpdateVersion(leases, lease(), lease("7"), true));
  expect([refused.code, refused.message]).toEqual([
    422,
    'leases.coordination.k8s.io "l" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
  ]);
  const stale = statusErrorOf(() => checkUpdateVersion(leases, lease("6"), lease("7"), true));
  expect(stale.code).toBe(409);
  expect(() => checkUpdateVersion(leases, lease("7"), lease("7"), true)).not.toThrow();
});
