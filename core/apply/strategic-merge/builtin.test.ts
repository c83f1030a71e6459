import { expect, test } from "bun:test";
import { builtInSchemas } from "../../schema/lookup.ts";
import { strategicMergePatch } from "./mod.ts";

const podSchema = builtInSchemas.schemaForKind("", "v1", "Pod")!;
const deploymentSchema = builtInSchemas.schemaForKind("apps", "v1", "Deployment")!;

const pod = {
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: "p", labels: { app: "web" }, finalizers: ["a"] },
  spec: {
    containers: [{ name: "web", image: "nginx:1", env: [{ name: "A", value: "1" }] }, { name: "side", image: "busybox" }],
    tolerations: [{ key: "k1", operator: "Exists" }],
  },
};

test("containers merge by name and their env by name, as the Pod schema declares", () => {
  const patched = strategicMergePatch(
    pod,
    { spec: { containers: [{ name: "web", image: "nginx:2", env: [{ name: "B", value: "2" }] }] } },
    { schema: podSchema },
  );
  expect(patched.spec).toEqual({
    containers: [{ name: "web", image: "nginx:2", env: [{ name: "B", value: "2" }, { name: "A", value: "1" }] }, {
      name: "side",
      image: "busybox",
    }],
    tolerations: [{ key: "k1", operator: "Exists" }],
  });
});

test("a list without a patch strategy (tolerations) is replaced", () => {
  const patched = strategicMergePatch(pod, { spec: { tolerations: [{ key: "k2", operator: "Exists" }] } }, { schema: podSchema });
  expect((patched.spec as { tolerations: unknown }).tolerations).toEqual([{ key: "k2", operator: "Exists" }]);
});

test("finalizers merge as a set of scalars and labels merge as a map", () => {
  const patched = strategicMergePatch(pod, { metadata: { finalizers: ["b", "a"], labels: { tier: "front", app: null } } }, {
    schema: podSchema,
  });
  expect(patched.metadata).toEqual({ name: "p", labels: { tier: "front" }, finalizers: ["b", "a"] });
});

test("$patch: delete removes a container by name", () => {
  const patched = strategicMergePatch(pod, { spec: { containers: [{ name: "side", $patch: "delete" }] } }, { schema: podSchema });
  expect((patched.spec as { containers: { name: string }[] }).containers.map((c) => c.name)).toEqual(["web"]);
});

test("kubectl's retainKeys for a Deployment strategy clears the old rollingUpdate", () => {
  const deployment = { spec: { strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: 1 } } } };
  const patched = strategicMergePatch(deployment, { spec: { strategy: { $retainKeys: ["type"], type: "Recreate" } } }, {
    schema: deploymentSchema,
  });
  expect(patched.spec).toEqual({ strategy: { type: "Recreate" } });
});
