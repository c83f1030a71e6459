import { expect, test } from "bun:test";
import { builtInSchemas } from "./lookup.ts";
import { createFieldNodes, type FieldNode, goTypeOf } from "./_field-nodes.ts";

const nodes = createFieldNodes(builtInSchemas);

function field(node: FieldNode | undefined, ...names: string[]): FieldNode {
  let current = node!;
  for (const name of names) {
    if (current.kind === "array") current = current.item;
    if (current.kind !== "struct") throw new Error(`${name}: not a struct`);
    current = nodes.fieldsOf(current).get(name)!;
  }
  return current;
}

test("forKind() answers the kind's struct with Go's struct and type names, the same node every time", () => {
  const deployment = nodes.forKind("apps", "v1", "Deployment");
  expect(deployment).toMatchObject({ kind: "struct", name: "Deployment", goType: "v1.Deployment" });
  expect(nodes.forKind("apps", "v1", "Deployment")).toBe(deployment!);
  expect(nodes.forKind("example.com", "v1", "Widget")).toBeUndefined();
});

test("fields carry the Go types kube's decoder names: slices, maps, scalars and the apimachinery special types", () => {
  const pod = nodes.forKind("", "v1", "Pod");
  const cases: [string[], string][] = [
    [["spec", "containers"], "[]v1.Container"],
    [["metadata", "labels"], "map[string]string"],
    [["spec", "containers", "resources", "limits"], "map[string]resource.Quantity"],
    [["spec", "terminationGracePeriodSeconds"], "int64"],
    [["spec", "containers", "ports", "containerPort"], "int32"],
    [["spec", "hostNetwork"], "bool"],
    [["metadata", "creationTimestamp"], "v1.Time"],
    [["spec", "containers", "livenessProbe", "httpGet", "port"], "intstr.IntOrString"],
  ];
  for (const [path, goType] of cases) expect({ path, goType: goTypeOf(field(pod, ...path)) }).toEqual({ path, goType });
  expect(goTypeOf(field(nodes.forKind("", "v1", "Secret"), "data"))).toBe("map[string][]uint8");
});

test("raw JSON fields accept anything", () => {
  const deployment = nodes.forKind("apps", "v1", "Deployment");
  expect(field(deployment, "metadata", "managedFields", "fieldsV1").kind).toBe("raw");
  expect(field(nodes.forKind("apps", "v1", "ControllerRevision"), "data").kind).toBe("raw");
});
