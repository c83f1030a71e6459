import { expect, test } from "bun:test";
import { deleteOptionsObject, writeOptionsObject } from "./admission-hook.ts";

test("writeOptionsObject is the CreateOptions/UpdateOptions kube hands admission: unset fields left out, dry run as [All]", () => {
  expect(writeOptionsObject("CREATE", { fieldManager: "kubectl" })).toEqual({
    kind: "CreateOptions",
    apiVersion: "meta.k8s.io/v1",
    fieldManager: "kubectl",
  });
  const update = writeOptionsObject("UPDATE", { dryRun: true, fieldValidation: "Strict" });
  expect(update).toEqual({ kind: "UpdateOptions", apiVersion: "meta.k8s.io/v1", dryRun: ["All"], fieldValidation: "Strict" });
  expect(Object.keys(update)).toEqual(["kind", "apiVersion", "dryRun", "fieldValidation"]);
});

test("deleteOptionsObject leaves out what the delete did not set", () => {
  expect(deleteOptionsObject({ gracePeriodSeconds: 0 })).toEqual({
    kind: "DeleteOptions",
    apiVersion: "meta.k8s.io/v1",
    gracePeriodSeconds: 0,
  });
});

test("deleteOptionsObject carries the propagation as asked, in metav1.DeleteOptions' field order", () => {
  const options = deleteOptionsObject({ dryRun: true, propagationPolicy: "Foreground", gracePeriodSeconds: 5 });
  expect(options).toEqual({
    kind: "DeleteOptions",
    apiVersion: "meta.k8s.io/v1",
    gracePeriodSeconds: 5,
    propagationPolicy: "Foreground",
    dryRun: ["All"],
  });
  expect(Object.keys(options)).toEqual(["kind", "apiVersion", "gracePeriodSeconds", "propagationPolicy", "dryRun"]);
  expect(deleteOptionsObject({ orphanDependents: false })).toMatchObject({ orphanDependents: false });
});
