import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { HAND_WRITTEN_TYPES } from "../../scripts/catalog-facts.ts";
import { readSwagger, SWAGGER_PATH } from "../../scripts/gen-catalog.ts";
import { CORE_EVENT_FIELDS, DEFAULT_FIELDS } from "../api/field-labels.ts";
import type { Printer } from "../api/printers/mod.ts";
import type { KubeObject } from "../api/types.ts";
import { typeFromSchema } from "../apply/ssa/mod.ts";
import { DEFAULTERS } from "../schema/defaults/mod.ts";
import { builtInSchemas } from "../schema/lookup.ts";
import { builtInCatalog } from "./catalog.ts";
import { builtInDefinition, customDefinition } from "./definition.ts";
import { KIND_FACTS, type KindFacts, kindFactsOf } from "./kind-facts.ts";
import type { ResourceType } from "../api/resource-type.ts";

const TYPES = builtInCatalog().all();
const key = (type: ResourceType) => `${type.group}/${type.resource}`;
/** Every version kube 1.26 serves a group/resource in, as the generated catalog has them. */
const BY_RESOURCE = Map.groupBy(TYPES, key);

test("every built-in catalog kind has its entry in kind-facts.ts, and every entry names a catalog kind", () => {
  expect([...BY_RESOURCE.keys()].filter((id) => !Object.hasOwn(KIND_FACTS, id))).toEqual([]);
  expect(Object.keys(KIND_FACTS).filter((id) => !BY_RESOURCE.has(id))).toEqual([]);
});

/** The contradictions a hand-written fact can have with the 1.26 API data (verbs and subresources). */
function contradictions(id: string, facts: KindFacts): string[] {
  const types = BY_RESOURCE.get(id) ?? [];
  const verbs = new Set(types.flatMap((type) => type.verbs));
  const subresources = new Set(types.flatMap((type) => type.subresources.map((s) => s.name)));
  const hooks = facts.hooks ?? {};
  const claims: [boolean, string][] = [
    [facts.printer !== undefined && !verbs.has("get"), "a printer for a kind nobody can read"],
    [facts.fields !== undefined && !verbs.has("list"), "field labels for a kind nobody can list"],
    [facts.tracksGeneration === true && !verbs.has("update"), "generation tracking without update"],
    [facts.allowCreateOnUpdate === true && !(verbs.has("update") && verbs.has("create")), "create-on-update without create and update"],
    [facts.conditionalUpdateOnly === true && !verbs.has("update"), "an update rule without update"],
    [facts.returnsDeletedObject === true && !verbs.has("delete"), "a DELETE answer without delete"],
    [facts.orphansDependents === true && !verbs.has("delete"), "a garbage-collection policy without delete"],
    [
      (hooks.checkGracefulDelete ?? hooks.holdsDeletion ?? hooks.markTerminating) !== undefined && !verbs.has("delete"),
      "deletion hooks without delete",
    ],
    [facts.keepsStatusOnCreate === true && !subresources.has("status"), "a status rule without a status subresource"],
    [hooks.initialStatus !== undefined && !subresources.has("status"), "an initial status without a status subresource"],
    [(facts.rules !== undefined || facts.name !== undefined) && !verbs.has("create"), "value rules for a kind nobody writes"],
    ...Object.keys(facts.subresourceRules ?? {}).map((name): [boolean, string] => [
      !subresources.has(name),
      `rules for a ${name} subresource the kind lacks`,
    ]),
  ];
  return claims.filter(([wrong]) => wrong).map(([, what]) => `${id}: ${what}`);
}

test("no hand-written kind fact contradicts the 1.26 API data (verbs, subresources)", () => {
  expect(Object.entries(KIND_FACTS).flatMap(([id, facts]) => contradictions(id, facts))).toEqual([]);
});

test("a fact the data contradicts is caught: a printer for a create-only kind, rules for a missing subresource", () => {
  expect(contradictions("/bindings", { printer: {} as Printer, subresourceRules: { scale: { create: () => [] } } })).toEqual([
    "/bindings: a printer for a kind nobody can read",
    "/bindings: rules for a scale subresource the kind lacks",
  ]);
});

test("every defaulter (kube's SetDefaults_<Kind>) is for a group/version/kind the catalog serves", () => {
  const served = new Set(TYPES.map((type) => `${type.group}/${type.version}/${type.kind}`));
  const defaulted = DEFAULTERS.flatMap(({ group, version, kinds }) => Object.keys(kinds).map((kind) => `${group}/${version}/${kind}`));
  expect(defaulted.filter((id) => !served.has(id))).toEqual([]);
});

test("every stored kind of the 1.26 API data has kube's protobuf encoding (generated descriptors); PodSecurityPolicy has none", () => {
  const handWritten = new Set(HAND_WRITTEN_TYPES.map((type) => `${type.group}/${type.version}/${type.resource}`));
  const fromData = (type: ResourceType) => !handWritten.has(`${type.group}/${type.version}/${type.resource}`);
  const stored = TYPES.filter((type) => type.storageVersionHash !== undefined && fromData(type));
  expect(stored.filter((type) => !builtInDefinition(type).protobuf).map(key)).toEqual([]);
});

test("each printer gives one cell per column, even for a bare object (pkg/printers/internalversion)", () => {
  const bare = { metadata: { name: "x", creationTimestamp: "2024-05-01T11:55:00Z" } };
  const printed = TYPES.map(builtInDefinition).filter((definition) => definition.printer);
  expect(printed.length).toBeGreaterThan(40);
  for (const { printer } of printed) expect(printer!.cells(bare, new Date("2024-05-01T12:00:00Z"))).toHaveLength(printer!.columns.length);
});

test("kinds kube prints with the default Name / Created At columns have no printer of their own", () => {
  const of = (group: string, resource: string) => builtInDefinition(BY_RESOURCE.get(`${group}/${resource}`)![0]!);
  for (
    const [group, resource] of [["rbac.authorization.k8s.io", "roles"], ["", "limitranges"], [
      "apiextensions.k8s.io",
      "customresourcedefinitions",
    ]]
  ) {
    expect(of(group, resource).printer).toBeUndefined();
  }
  // A resource name that is an Object.prototype member is no entry of the table.
  expect(kindFactsOf("", "toString")).toBeUndefined();
  expect(of("", "events").fields).toBe(CORE_EVENT_FIELDS);
  expect(of("apps", "deployments").fields).toBe(DEFAULT_FIELDS);
});

test("every built-in kind answers DELETE with the object or a Status as kube 1.26's OpenAPI documents it (namespaces: the object)", () => {
  if (!existsSync(SWAGGER_PATH)) {
    console.log("DELETE answer check skipped: ../shared/k8s-api-1.26 is absent");
    return;
  }
  type DeleteOperation = { responses: Record<string, { schema?: { $ref?: string } }> };
  const paths = readSwagger().paths as Record<string, { delete?: DeleteOperation }>;
  let checked = 0;
  for (const type of TYPES) {
    if (!type.verbs.includes("delete")) continue;
    const root = type.group === "" ? `/api/${type.version}` : `/apis/${type.group}/${type.version}`;
    const operation = paths[`${root}${type.namespaced ? "/namespaces/{namespace}" : ""}/${type.resource}/{name}`]?.delete;
    if (!operation) continue; // Kinds 1.26 no longer documents (PodSecurityPolicy).
    const documented = operation.responses["200"].schema?.$ref !== "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Status";
    const expected = key(type) === "/namespaces" ? true : documented;
    expect({ id: key(type), returnsObject: builtInDefinition(type).strategy.returnsDeletedObject }).toEqual({
      id: key(type),
      returnsObject: expected,
    });
    checked++;
  }
  expect(checked).toBeGreaterThan(40);
});

test("a custom resource's definition comes from its CRD: crConverter's field labels, its printer, no protobuf", () => {
  const type: ResourceType = {
    group: "example.com",
    version: "v1",
    resource: "widgets",
    singularName: "widget",
    kind: "Widget",
    listKind: "WidgetList",
    namespaced: false,
    shortNames: [],
    categories: [],
    verbs: ["create", "get", "list", "update"],
    subresources: [{ name: "status", kind: "Widget", verbs: ["get", "update", "patch"] }],
  };
  const printer = { columns: [], cells: () => [] } as unknown as Printer;
  const definition = customDefinition(type, {
    strategy: { tracksGeneration: true, allowUnconditionalUpdate: false },
    prune: () => [],
    applyDefaults: (obj) => void (obj.spec = { defaulted: true }),
    validate: () => [{ type: "FieldValueRequired", field: "spec.size", detail: "Required value" }],
    printer,
    storageApiVersion: "example.com/v1",
    convert: (objects) => Promise.resolve(objects),
    mergeType: typeFromSchema({ type: "object" }, builtInSchemas),
    versionMergeType: () => undefined,
  });
  expect(Object.keys(definition.fields.accepted)).toEqual(["metadata.name"]);
  expect(definition.fields.reject("spec.x")).toBe("field label not supported: spec.x");
  expect(definition.printer).toBe(printer);
  expect(definition.protobuf).toBe(false);
  expect(definition.strategy).toMatchObject({ tracksGeneration: true, allowUnconditionalUpdate: false, hasStatus: true });
  expect(definition.validate({ metadata: {} }, undefined, "").map((e) => e.field)).toEqual(["spec.size"]);
  const obj: KubeObject = { metadata: {} };
  definition.applyDefaults(obj);
  expect(obj.spec).toEqual({ defaulted: true });
});
