/**
 * Field sets compared across versions (structured-merge-diff's Updater.update, reconcileManagedFieldsWithSchemaChanges
 * and Updater.prune over kube's versionConverter), on a kind whose v1 spells spec.color and v2 spec.paint.color.
 */
import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { applyConfiguration } from "./apply.ts";
import { setFromPaths } from "./field-set.ts";
import { toFieldsV1 } from "./fields-v1.ts";
import { managerId, type Managers } from "./managed-fields.ts";
import { dropMissingVersions, updateOtherManagers } from "./other-managers.ts";
import { DEDUCED } from "./schema-type.ts";
import type { OwnershipScope } from "./scope.ts";
import { VersionConversionError, type VersionConverter } from "./versions.ts";

const V1 = "example.com/v1";
const V2 = "example.com/v2";

function widget(apiVersion: string, color: string | undefined, extra: Record<string, unknown> = {}): KubeObject {
  const spec = apiVersion === V2 ? (color === undefined ? {} : { paint: { color } }) : color === undefined ? {} : { color };
  return { apiVersion, kind: "Widget", metadata: { name: "w" }, spec: { ...spec, ...extra } };
}

/** Converts between v1 and v2 and counts the conversions; every other version is missing. */
function twoVersions(calls: string[] = []): VersionConverter {
  return {
    convert(obj, apiVersion) {
      if (apiVersion !== V1 && apiVersion !== V2) return undefined;
      calls.push(`${String(obj.apiVersion)}->${apiVersion}`);
      const spec = (obj.spec ?? {}) as { color?: string; paint?: { color?: string }; size?: number };
      const { color: _c, paint: _p, ...rest } = spec;
      return { object: { ...widget(apiVersion, spec.color ?? spec.paint?.color, rest), metadata: obj.metadata }, type: DEDUCED };
    },
  };
}

/** The stored object as a request through `apiVersion` reads it. */
function readAs(obj: KubeObject, apiVersion: string): KubeObject {
  return (twoVersions().convert(obj, apiVersion) as { object: KubeObject }).object;
}

function scopeFor(apiVersion: string, converter: VersionConverter = twoVersions()): OwnershipScope {
  return { apiVersion, hasStatusSubresource: false, type: DEDUCED, converter };
}

function managersOf(...entries: [string, string, string[][]][]): Managers {
  const managers: Managers = new Map();
  for (const [manager, apiVersion, paths] of entries) {
    const entry = { manager, operation: "Apply" as const, apiVersion, fields: setFromPaths(paths) };
    managers.set(managerId(entry), entry);
  }
  return managers;
}

const PAINT_COLOR = ["f:spec", "f:paint", "f:color"];

test("Updater.update: a v2 owner's spec.paint.color conflicts with a v1 write of spec.color, the path in v2's spelling", async () => {
  const managers = managersOf(["painter", V2, [PAINT_COLOR]]);
  const { conflicts } = await updateOtherManagers(widget(V1, "red"), widget(V1, "blue"), managers, "", scopeFor(V1), false);
  expect(conflicts).toEqual([{ managerId: managerId({ manager: "painter", operation: "Apply", apiVersion: V2 }), path: PAINT_COLOR }]);
  expect(toFieldsV1([...managers.values()][0].fields)).toEqual({ "f:spec": { "f:paint": { "f:color": {} } } });
});

test("Updater.update with force: the conflicting field and what the write removed leave the other version's owner", async () => {
  const managers = managersOf(["painter", V2, [PAINT_COLOR, ["f:spec", "f:size"]]]);
  const before = widget(V1, "red", { size: 1 });
  await updateOtherManagers(before, widget(V1, "blue"), managers, "", scopeFor(V1), true);
  expect(toFieldsV1([...managers.values()][0].fields)).toEqual({});
});

test("an unchanged value in another version is no conflict, and each object is converted once per version", async () => {
  const calls: string[] = [];
  const managers = managersOf(["a", V2, [PAINT_COLOR]], ["b", V2, [["f:spec", "f:size"]]]);
  const { conflicts } = await updateOtherManagers(
    widget(V1, "red"),
    widget(V1, "red"),
    managers,
    "",
    scopeFor(V1, twoVersions(calls)),
    false,
  );
  expect(conflicts).toEqual([]);
  expect(calls).toEqual([`${V1}->${V2}`, `${V1}->${V2}`]);
});

test("IsMissingVersionError: managers of a version the converter does not know are dropped, the others kept", async () => {
  const managers = managersOf(["gone", "example.com/v0", [["f:spec", "f:color"]]], ["painter", V2, [PAINT_COLOR]]);
  await dropMissingVersions(managers, widget(V1, "red"), scopeFor(V1));
  expect([...managers.values()].map((e) => e.manager)).toEqual(["painter"]);
});

test("a failing conversion is an error: raw while reconciling the live object, prefixed as Updater.update words it", async () => {
  const failing: VersionConverter = {
    convert: () => {
      throw new Error("webhook down");
    },
  };
  const managers = managersOf(["painter", V2, [PAINT_COLOR]]);
  await expect(dropMissingVersions(managers, widget(V1, "red"), scopeFor(V1, failing))).rejects.toThrow(
    new VersionConversionError("webhook down"),
  );
  await expect(updateOtherManagers(widget(V1, "red"), widget(V1, "blue"), managers, "", scopeFor(V1, failing), true)).rejects.toThrow(
    "failed to convert old object: webhook down",
  );
});

test("Updater.prune: what the applier set last time in v2 and no longer applies through v1 is removed", async () => {
  const live = await applyConfiguration(
    null,
    widget(V2, "red", { size: 1 }),
    { manager: "a", force: false, now: "2024-01-01T00:00:00Z" },
    scopeFor(V2),
  );
  const after = await applyConfiguration(readAs(live, V1), widget(V1, undefined, { size: 1 }), {
    manager: "a",
    force: false,
    now: "2024-01-02T00:00:00Z",
  }, scopeFor(V1));
  expect(after.spec).toEqual({ size: 1 });
  expect((after.metadata.managedFields as { apiVersion: string }[]).map((e) => e.apiVersion)).toEqual([V1]);
});

test("addBackOwnedItems: a field another manager owns in the other version stays when the applier stops applying it", async () => {
  const now = "2024-01-01T00:00:00Z";
  const byA = await applyConfiguration(null, widget(V2, "red", { size: 1 }), { manager: "a", force: false, now }, scopeFor(V2));
  const shared = await applyConfiguration(readAs(byA, V1), widget(V1, "red"), { manager: "b", force: false, now }, scopeFor(V1));
  const after = await applyConfiguration(
    readAs(shared, V2),
    widget(V2, undefined, { size: 1 }),
    { manager: "a", force: false, now },
    scopeFor(V2),
  );
  expect(after.spec).toEqual({ size: 1, paint: { color: "red" } });
});
