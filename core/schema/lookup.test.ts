import { expect, test } from "bun:test";
import { BUILT_IN_DEFINITIONS, BUILT_IN_KINDS } from "./builtin.gen.ts";
import { builtInSchemas, createSchemaLookup } from "./lookup.ts";

test("schemaForKind() finds a built-in kind by group, version and kind", () => {
  const pod = builtInSchemas.schemaForKind("", "v1", "Pod");
  expect(pod?.["x-kubernetes-group-version-kind"]).toEqual([{ group: "", kind: "Pod", version: "v1" }]);
  expect(builtInSchemas.definitionNameFor("apps", "v1", "Deployment")).toBe("io.k8s.api.apps.v1.Deployment");
  expect(builtInSchemas.schemaForKind("apps", "v1", "Pod")).toBeUndefined();
});

test("schemaForKind() finds meta kinds registered under every group", () => {
  expect(builtInSchemas.definitionNameFor("apps", "v1", "DeleteOptions"))
    .toBe("io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions");
});

test("the hand-written PodSecurityPolicy is served as policy/v1beta1 with its 1.24 required fields", () => {
  const spec = builtInSchemas.resolve(
    builtInSchemas.propertySchema(
      builtInSchemas.schemaForKind("policy", "v1beta1", "PodSecurityPolicy")!,
      "spec",
    )!,
  );
  expect(spec.required).toEqual(["seLinux", "runAsUser", "supplementalGroups", "fsGroup"]);
  const ranges = builtInSchemas.propertySchema(builtInSchemas.resolve(spec.properties!.runAsUser), "ranges");
  expect(builtInSchemas.resolve(ranges!.items!).required).toEqual(["min", "max"]);
});

test("propertySchema() keeps a field's list semantics and resolve() gives its element structure", () => {
  const podSpec = builtInSchemas.definition("io.k8s.api.core.v1.PodSpec")!;
  const containers = builtInSchemas.propertySchema(podSpec, "containers")!;
  expect(containers["x-kubernetes-patch-merge-key"]).toBe("name");
  expect(containers["x-kubernetes-patch-strategy"]).toBe("merge");
  const container = builtInSchemas.resolve(containers.items!);
  expect(container.required).toEqual(["name"]);
  expect(builtInSchemas.propertySchema(podSpec, "noSuchField")).toBeUndefined();
});

test("generated definitions carry no description text", () => {
  const described: string[] = [];
  JSON.stringify(builtInSchemas.definitions, (key, value) => {
    if (key === "description" && typeof value === "string") described.push(value);
    return value;
  });
  expect(described).toEqual([]);
  expect(builtInSchemas.definition("io.k8s.api.scheduling.v1.PriorityClass")?.properties?.description).toEqual({
    type: "string",
  });
});

test("resolve() returns a schema without ref unchanged and throws on an unknown name", () => {
  const scalar = { type: "string" as const };
  expect(builtInSchemas.resolve(scalar)).toBe(scalar);
  expect(() => builtInSchemas.resolve("io.example.Missing")).toThrow("unknown schema definition io.example.Missing");
});

test("createSchemaLookup() resolves chains of refs inside the given definitions", () => {
  const lookup = createSchemaLookup({
    "a.Alias": { ref: "a.Target" },
    "a.Target": { type: "object", properties: { x: { type: "integer" } } },
  });
  expect(lookup.resolve("a.Alias").properties?.x).toEqual({ type: "integer" });
  expect(lookup.definition("toString")).toBeUndefined();
});

test("the generated BUILT_IN_KINDS index names the definitions that list each kind, as an index built from them would", () => {
  const indexedFromDefinitions = createSchemaLookup(BUILT_IN_DEFINITIONS);
  const keys = [...BUILT_IN_KINDS.keys()];
  expect(keys.length).toBeGreaterThan(200);
  for (const key of keys) {
    const [group, version, kind] = key.split("/") as [string, string, string];
    expect(indexedFromDefinitions.definitionNameFor(group, version, kind)).toBe(BUILT_IN_KINDS.get(key));
  }
  const listed = Object.values(BUILT_IN_DEFINITIONS).flatMap((schema) => schema["x-kubernetes-group-version-kind"] ?? []);
  expect(new Set(listed.map((gvk) => `${gvk.group}/${gvk.version}/${gvk.kind}`)).size).toBe(keys.length);
});
