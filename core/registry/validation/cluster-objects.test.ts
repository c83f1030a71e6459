import { expect, test } from "bun:test";
import { messages } from "./_testing.ts";
import {
  validateLease,
  validateNamespace,
  validatePersistentVolumeClaim,
  validatePriorityClass,
  validatePriorityClassUpdate,
  validateStorageClassUpdate,
} from "./cluster-objects.ts";

test("validateNamespace() accepts standard and qualified finalizers only", () => {
  expect(validateNamespace({ metadata: { name: "n" }, spec: { finalizers: ["kubernetes", "example.com/x"] } })).toEqual([]);
  expect(messages(validateNamespace({ metadata: { name: "n" }, spec: { finalizers: ["custom"] } }))).toEqual([
    'spec.finalizers: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
  ]);
});

test("PriorityClass values are capped for users and fixed after creation", () => {
  expect(messages(validatePriorityClass({ metadata: { name: "high" }, value: 1000000001 }))).toEqual([
    "value: Forbidden: maximum allowed value of a user defined priority is 1000000000",
  ]);
  expect(messages(validatePriorityClass({ metadata: { name: "system-x" }, value: 1 }))).toEqual([
    "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-x is not a known system priority class",
  ]);
  expect(messages(validatePriorityClassUpdate({ metadata: { name: "p" }, value: 2 }, { metadata: { name: "p" }, value: 1 }))).toEqual([
    "value: Forbidden: may not be changed in an update.",
  ]);
});

test("StorageClass provisioner and parameters cannot change", () => {
  const old = { metadata: { name: "s" }, provisioner: "a.example.com", parameters: { x: "1" } };
  expect(messages(validateStorageClassUpdate({ ...old, provisioner: "b.example.com", parameters: { x: "2" } }, old))).toEqual([
    "parameters: Forbidden: updates to parameters are forbidden.",
    "provisioner: Forbidden: updates to provisioner are forbidden.",
  ]);
});

test("validatePersistentVolumeClaim() requires access modes and a storage request", () => {
  expect(messages(validatePersistentVolumeClaim({ metadata: { name: "c" }, spec: {} }))).toEqual([
    "spec.accessModes: Required value: at least 1 access mode is required",
    "spec.resources[storage]: Required value",
  ]);
});

test("validateLease() wants a positive duration", () => {
  expect(messages(validateLease({ metadata: { name: "l" }, spec: { leaseDurationSeconds: 0 } }))).toEqual([
    "spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0",
  ]);
});
