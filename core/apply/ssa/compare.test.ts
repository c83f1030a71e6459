import { expect, test } from "bun:test";
import { addedOrModifiedSinceZero, compareValues } from "./compare.ts";
import { memberPaths, union } from "./field-set.ts";
import { toFieldsV1 } from "./fields-v1.ts";
import { DEDUCED, typeForKind, zeroObject } from "./schema-type.ts";

const configMap = typeForKind("", "v1", "ConfigMap");

test("TypedValue.Compare: a new subtree is added with every path in it, a changed leaf is modified, a dropped one removed", () => {
  const before = { metadata: { name: "a", labels: { old: "x", kept: "y" } }, data: { k: "1" } };
  const after = { metadata: { name: "a", labels: { kept: "z" }, annotations: { note: "n" } }, data: { k: "1" } };
  const changes = compareValues(before, after, configMap);
  expect(memberPaths(changes.added)).toEqual([["f:metadata", "f:annotations"], ["f:metadata", "f:annotations", "f:note"]]);
  expect(memberPaths(changes.modified)).toEqual([["f:metadata", "f:labels", "f:kept"]]);
  expect(memberPaths(changes.removed)).toEqual([["f:metadata", "f:labels", "f:old"]]);
});

test("keys named like Object.prototype's members are compared as any other key", () => {
  const changes = compareValues({ data: {} }, { data: { toString: "a", constructor: "b" } }, DEDUCED);
  expect(memberPaths(changes.added)).toEqual([["f:data", "f:constructor"], ["f:data", "f:toString"]]);
});

test("items of an associative list are compared by key", () => {
  const pod = typeForKind("", "v1", "Pod");
  const before = { spec: { containers: [{ name: "a", image: "1" }, { name: "b", image: "1" }] } };
  const after = { spec: { containers: [{ name: "b", image: "2" }, { name: "a", image: "1" }] } };
  const changes = compareValues(before, after, pod);
  expect(memberPaths(changes.modified)).toEqual([["f:spec", "f:containers", 'k:{"name":"b"}', "f:image"]]);
  expect(memberPaths(changes.added)).toEqual([]);
  expect(memberPaths(changes.removed)).toEqual([]);
});

test("TypedValue.Compare: a new object's keyed lists, atomic maps and nulls are added path by path, nothing else changes", () => {
  const pod = typeForKind("", "v1", "Pod");
  const after = {
    metadata: { name: "p", labels: { app: "x" } },
    spec: { containers: [{ name: "a", ports: [{ containerPort: 80 }] }], nodeSelector: { zone: "z" }, affinity: null },
  };
  const changes = compareValues({}, after, pod);
  expect(memberPaths(changes.added)).toEqual([
    ["f:metadata"],
    ["f:spec"],
    ["f:metadata", "f:labels"],
    ["f:metadata", "f:name"],
    ["f:metadata", "f:labels", "f:app"],
    ["f:spec", "f:affinity"],
    ["f:spec", "f:containers"],
    ["f:spec", "f:nodeSelector"],
    ["f:spec", "f:containers", 'k:{"name":"a"}'],
    ["f:spec", "f:containers", 'k:{"name":"a"}', "f:name"],
    ["f:spec", "f:containers", 'k:{"name":"a"}', "f:ports"],
    ["f:spec", "f:containers", 'k:{"name":"a"}', "f:ports", 'k:{"containerPort":80,"protocol":"TCP"}'],
    ["f:spec", "f:containers", 'k:{"name":"a"}', "f:ports", 'k:{"containerPort":80,"protocol":"TCP"}', "f:containerPort"],
  ]);
  expect(memberPaths(changes.modified)).toEqual([]);
  expect(memberPaths(changes.removed)).toEqual([]);
});

test("TypedValue.Compare: a new list with two items of one key fails as structured-merge-diff's duplicate entries", () => {
  const pod = typeForKind("", "v1", "Pod");
  const after = { spec: { containers: [{ name: "a" }, { name: "a" }] } };
  expect(() => compareValues({}, after, pod)).toThrow('.spec.containers: duplicate entries for key [name="a"]');
});

test("a create's added-or-modified set against the kind's zero object is TypedValue.Compare's Added ∪ Modified", () => {
  const objects: [string, string, string, Record<string, unknown>][] = [
    ["", "v1", "ConfigMap", { metadata: { name: "c", creationTimestamp: "2026-01-01T00:00:00Z", labels: { app: "x" } }, data: { k: "v" } }],
    ["", "v1", "Pod", {
      metadata: { name: "p", creationTimestamp: null, annotations: {} },
      spec: { containers: [{ name: "a", image: "i", ports: [{ containerPort: 80 }], resources: {} }], nodeSelector: { z: "1" } },
      status: {},
    }],
    ["apps", "v1", "Deployment", {
      metadata: { name: "d" },
      spec: {
        replicas: 1,
        selector: { matchLabels: { a: "b" } },
        template: { metadata: { creationTimestamp: null }, spec: { containers: [] } },
      },
    }],
    ["", "v1", "Service", {
      metadata: { name: "s" },
      spec: { ports: [{ port: 80, protocol: "TCP" }], type: "ClusterIP" },
      status: { loadBalancer: {} },
    }],
  ];
  for (const [group, version, kind, obj] of objects) {
    const type = typeForKind(group, version, kind);
    const zero = { apiVersion: version, kind, ...zeroObject(type) };
    const after = { apiVersion: version, kind, ...obj };
    const compared = compareValues(zero, after, type);
    expect(toFieldsV1(addedOrModifiedSinceZero(zero, after, type))).toEqual(toFieldsV1(union(compared.added, compared.modified)));
  }
});
