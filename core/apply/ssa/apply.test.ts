/** Spec 3.2, row by row, through applyConfiguration on ConfigMaps (granular maps) and Deployments (keyed lists). */
import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { applyConfiguration } from "./apply.ts";
import { oneVersionScope } from "./_one-version.ts";
import { typeForKind } from "./schema-type.ts";
import { managedFieldsAfterUpdate } from "./track-update.ts";

const NOW = "2024-01-01T00:00:00Z";
const CM = oneVersionScope("v1", false, typeForKind("", "v1", "ConfigMap"));
const DEPLOY = oneVersionScope("apps/v1", true, typeForKind("apps", "v1", "Deployment"));

function cm(data: Record<string, string>, extra: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c", namespace: "ns" }, data, ...extra };
}

function apply(live: KubeObject | null, config: KubeObject, manager: string, force = false, scope = CM): Promise<KubeObject> {
  return applyConfiguration(live, config, { manager, force, now: NOW }, scope);
}

type Entry = { manager: string; operation: string; fieldsV1: unknown };

function owners(obj: KubeObject): Record<string, unknown> {
  return Object.fromEntries((obj.metadata.managedFields as Entry[]).map((e) => [`${e.manager}/${e.operation}`, e.fieldsV1]));
}

async function conflictOf(run: () => Promise<unknown>): Promise<{ code: number; message: string; causes: unknown }> {
  try {
    await run();
  } catch (e) {
    const err = e as { code: number; message: string; details?: { causes?: unknown } };
    return { code: err.code, message: err.message, causes: err.details?.causes };
  }
  throw new Error("expected a conflict");
}

const ownedByA = await apply(null, cm({ x: "1", y: "2" }), "a");

const rows: { name: string; run: () => Promise<void> }[] = [
  {
    name: "apply by B with a different value on A's field conflicts, one cause per field",
    run: async () => {
      expect(await conflictOf(() => apply(ownedByA, cm({ x: "9" }), "b"))).toEqual({
        code: 409,
        message: 'Apply failed with 1 conflict: conflict with "a": .data.x',
        causes: [{ reason: "FieldManagerConflict", message: 'conflict with "a"', field: ".data.x" }],
      });
    },
  },
  {
    name: "several conflicts are listed per manager",
    run: async () => {
      expect((await conflictOf(() => apply(ownedByA, cm({ x: "9", y: "9" }), "b"))).message).toBe(
        'Apply failed with 2 conflicts: conflicts with "a":\n- .data.x\n- .data.y',
      );
    },
  },
  {
    name: "force=true gives B sole ownership and removes the field from A",
    run: async () => {
      const forced = await apply(ownedByA, cm({ x: "9" }), "b", true);
      expect(forced.data).toEqual({ x: "9", y: "2" });
      expect(owners(forced)).toEqual({ "a/Apply": { "f:data": { "f:y": {} } }, "b/Apply": { "f:data": { "f:x": {} } } });
    },
  },
  {
    name: "apply by B with the same value shares ownership; a later change by A then conflicts",
    run: async () => {
      const shared = await apply(ownedByA, cm({ x: "1" }), "b");
      expect(owners(shared)).toEqual({ "a/Apply": { "f:data": { "f:x": {}, "f:y": {} } }, "b/Apply": { "f:data": { "f:x": {} } } });
      expect((await conflictOf(() => apply(shared, cm({ x: "5", y: "2" }), "a"))).message).toBe(
        'Apply failed with 1 conflict: conflict with "b": .data.x',
      );
    },
  },
  {
    name: "apply by A omitting a field only A owns removes the field",
    run: async () => {
      const dropped = await apply(ownedByA, cm({ x: "1" }), "a");
      expect(dropped.data).toEqual({ x: "1" });
      expect(owners(dropped)).toEqual({ "a/Apply": { "f:data": { "f:x": {} } } });
    },
  },
  {
    name: "apply by A omitting a field B also owns keeps the value and drops only A's ownership",
    run: async () => {
      const shared = await apply(ownedByA, cm({ y: "2" }), "b");
      const after = await apply(shared, cm({ x: "1" }), "a");
      expect(after.data).toEqual({ x: "1", y: "2" });
      expect(owners(after)).toEqual({ "a/Apply": { "f:data": { "f:x": {} } }, "b/Apply": { "f:data": { "f:y": {} } } });
    },
  },
  {
    name: "a non-apply write changing A's field never conflicts and takes the field under operation Update",
    run: async () => {
      const edited = { ...ownedByA, data: { x: "7", y: "2" } };
      const fields = await managedFieldsAfterUpdate(ownedByA, edited, { manager: "kubectl-edit", now: NOW }, CM);
      expect(owners({ ...edited, metadata: { ...edited.metadata, managedFields: fields } })).toEqual({
        "a/Apply": { "f:data": { "f:y": {} } },
        "kubectl-edit/Update": { "f:data": { "f:x": {} } },
      });
    },
  },
  {
    name: "a manager left owning nothing is removed",
    run: async () => {
      const onlyX = await apply(null, cm({ x: "1" }), "a");
      const forced = await apply(onlyX, cm({ x: "2" }), "b", true);
      expect(Object.keys(owners(forced))).toEqual(["b/Apply"]);
    },
  },
];

for (const row of rows) test(`3.2: ${row.name}`, row.run);

test("a repeated apply with nothing new keeps the object and the entry's time", async () => {
  const again = await applyConfiguration(ownedByA, cm({ x: "1", y: "2" }), { manager: "a", force: false, now: "2030-01-01T00:00:00Z" }, CM);
  expect((again.metadata.managedFields as { time: string }[])[0].time).toBe(NOW);
});

function deployment(containers: unknown[], replicas = 1): KubeObject {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "d", namespace: "ns" },
    spec: { replicas, selector: { matchLabels: { app: "d" } }, template: { metadata: { labels: { app: "d" } }, spec: { containers } } },
  };
}

test("keyed list items merge by key: B's container joins A's, and dropping it later removes only B's item", async () => {
  const a = await apply(null, deployment([{ name: "one", image: "i1" }]), "a", false, DEPLOY);
  const both = await apply(a, deployment([{ name: "two", image: "i2" }]), "b", false, DEPLOY);
  const spec = (o: KubeObject) =>
    (o.spec as { template: { spec: { containers: { name: string }[] } } }).template.spec.containers.map((c) => c.name);
  expect(spec(both)).toEqual(["one", "two"]);
  const bGone = await apply(both, deployment([]), "b", false, DEPLOY);
  expect(spec(bGone)).toEqual(["one"]);
});

test("a conflict inside a keyed list names the item by its key", async () => {
  const a = await apply(null, deployment([{ name: "web", image: "i1" }]), "a", false, DEPLOY);
  expect((await conflictOf(() => apply(a, deployment([{ name: "web", image: "i2" }]), "b", false, DEPLOY))).message).toBe(
    'Apply failed with 1 conflict: conflict with "a": .spec.template.spec.containers[name="web"].image',
  );
});

test("an Update manager is named with the apiVersion it wrote with", async () => {
  const created = deployment([{ name: "web", image: "i1" }], 1);
  created.metadata.managedFields = await managedFieldsAfterUpdate(
    null,
    created,
    { manager: "kubectl-client-side-apply", now: NOW },
    DEPLOY,
  );
  expect((await conflictOf(() => apply(created, { ...deployment([{ name: "web", image: "i1" }], 3) }, "kubectl-x", false, DEPLOY))).message)
    .toBe(
      'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas',
    );
});

test("the status of a kind with a status subresource is neither owned nor conflicting on the main resource", async () => {
  const applied = await apply(null, { ...deployment([{ name: "web", image: "i" }]), status: { replicas: 5 } }, "a", false, DEPLOY);
  expect(JSON.stringify(applied.metadata.managedFields)).not.toContain("f:status");
});

test("apply to the status subresource owns only status and records the subresource", async () => {
  const live = await apply(null, deployment([{ name: "web", image: "i" }]), "a", false, DEPLOY);
  const applied = await applyConfiguration(
    live,
    { ...deployment([]), status: { replicas: 2 } },
    { manager: "ctl", force: false, now: NOW },
    {
      ...DEPLOY,
      subresource: "status",
    },
  );
  const entry = (applied.metadata.managedFields as Record<string, unknown>[]).find((e) => e.manager === "ctl");
  expect(entry).toMatchObject({ operation: "Apply", subresource: "status", fieldsV1: { "f:status": { "f:replicas": {} } } });
});

test("custom resources without a schema are unstructured: every key owned with '.', lists atomic", async () => {
  const scope = oneVersionScope("example.com/v1", false, typeForKind("example.com", "v1", "Widget"));
  const config = { apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "w" }, spec: { size: 1, tags: ["a", "b"] } };
  const applied = await applyConfiguration(null, config, { manager: "m", force: false, now: NOW }, scope);
  expect((applied.metadata.managedFields as { fieldsV1: unknown }[])[0].fieldsV1).toEqual({
    "f:spec": { ".": {}, "f:size": {}, "f:tags": {} },
  });
});

test("the upgrade from client-side apply: kubectl takes fields still as last applied instead of conflicting", async () => {
  const lastApplied = JSON.stringify(cm({ x: "1" }));
  const live = cm({ x: "1" }, {});
  live.metadata.annotations = { "kubectl.kubernetes.io/last-applied-configuration": lastApplied };
  live.metadata.managedFields = await managedFieldsAfterUpdate(null, live, { manager: "kubectl-client-side-apply", now: NOW }, CM);
  const applied = await apply(live, cm({ x: "2" }), "kubectl");
  expect(applied.data).toEqual({ x: "2" });
  expect(applied.metadata.annotations!["kubectl.kubernetes.io/last-applied-configuration"]).toBe(
    '{"apiVersion":"v1","data":{"x":"2"},"kind":"ConfigMap","metadata":{"name":"c","namespace":"ns"}}\n',
  );
  expect((await conflictOf(() => apply(live, cm({ x: "2" }), "other"))).code).toBe(409);
});
