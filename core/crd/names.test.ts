import { expect, test } from "bun:test";
import type { CustomResourceDefinition } from "../registry/apiextensions/mod.ts";
import { acceptNames, emptyTakenNames, takeNames } from "./names.ts";

function crd(
  names: CustomResourceDefinition["spec"]["names"],
  accepted?: CustomResourceDefinition["spec"]["names"],
): CustomResourceDefinition {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${names.plural}.example.com` },
    spec: { group: "example.com", names, scope: "Namespaced", versions: [{ name: "v1", served: true, storage: true }] },
    ...(accepted ? { status: { acceptedNames: accepted } } : {}),
  };
}

test("acceptNames() accepts free names with kube's defaults, conditions NoConflicts and InitialNamesAccepted", () => {
  const result = acceptNames(crd({ plural: "widgets", kind: "Widget", shortNames: ["wd"] }), emptyTakenNames());
  expect(result.acceptedNames).toEqual({
    plural: "widgets",
    singular: "widget",
    kind: "Widget",
    listKind: "WidgetList",
    shortNames: ["wd"],
  });
  expect([result.namesAccepted.reason, result.established.status, result.established.reason]).toEqual([
    "NoConflicts",
    "True",
    "InitialNamesAccepted",
  ]);
});

test("acceptNames() refuses a plural another CRD holds, and a new CRD is then not established", () => {
  const taken = emptyTakenNames();
  takeNames(taken, { plural: "widgets", kind: "Gadget" });
  const result = acceptNames(crd({ plural: "widgets", kind: "Widget" }), taken);
  expect(result.namesAccepted).toEqual({
    type: "NamesAccepted",
    status: "False",
    reason: "PluralConflict",
    message: '"widgets" is already in use',
  });
  expect(result.acceptedNames.plural).toBe("");
  expect([result.established.status, result.established.reason]).toEqual(["False", "NotAccepted"]);
});

test("acceptNames() keeps the previously accepted name when a renamed kind conflicts", () => {
  const taken = emptyTakenNames();
  takeNames(taken, { plural: "gadgets", kind: "Gadget" });
  const previous = { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList" };
  const result = acceptNames(crd({ plural: "widgets", kind: "Gadget", listKind: "WidgetList" }, previous), taken);
  expect(result.acceptedNames.kind).toBe("Widget");
  expect(result.namesAccepted.reason).toBe("KindConflict");
  expect(result.established.status).toBe("True");
});
