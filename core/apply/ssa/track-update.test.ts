import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { applyConfiguration } from "./apply.ts";
import { oneVersionScope } from "./_one-version.ts";
import { typeForKind, typeFromSchema } from "./schema-type.ts";
import { managedFieldsAfterUpdate } from "./track-update.ts";

const NOW = "2024-01-01T00:00:00Z";
const LATER = "2024-01-02T00:00:00Z";
const CM = oneVersionScope("v1", false, typeForKind("", "v1", "ConfigMap"));
const DEPLOY = oneVersionScope("apps/v1", true, typeForKind("apps", "v1", "Deployment"));

function cm(data: Record<string, string>, managedFields?: unknown[]): KubeObject {
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "c", namespace: "ns", ...(managedFields ? { managedFields } : {}) },
    data,
  };
}

const created = cm({ a: "1" }, await managedFieldsAfterUpdate(null, cm({ a: "1" }), { manager: "kubectl-create", now: NOW }, CM));

test("a create records the creator's Update entry with every field it set", async () => {
  expect(created.metadata.managedFields).toEqual([
    {
      manager: "kubectl-create",
      operation: "Update",
      apiVersion: "v1",
      time: NOW,
      fieldsType: "FieldsV1",
      fieldsV1: { "f:data": { ".": {}, "f:a": {} } },
    },
  ]);
});

test("a create of a defaulted Deployment records what kube records for `kubectl create deployment`", async () => {
  const container = {
    name: "alpine",
    image: "alpine",
    imagePullPolicy: "Always",
    ports: [{ containerPort: 80, protocol: "TCP" }],
    resources: {},
    terminationMessagePath: "/dev/termination-log",
    terminationMessagePolicy: "File",
  };
  const deployment: KubeObject = {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "alpine", namespace: "default", labels: { app: "alpine" } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: "alpine" } },
      template: {
        metadata: { creationTimestamp: null, labels: { app: "alpine" } },
        spec: {
          containers: [container],
          restartPolicy: "Always",
          terminationGracePeriodSeconds: 30,
          dnsPolicy: "ClusterFirst",
          securityContext: {},
          schedulerName: "default-scheduler",
        },
      },
      strategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: "25%", maxSurge: "25%" } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    },
    status: {},
  };
  const [entry] = await managedFieldsAfterUpdate(null, deployment, { manager: "kubectl-create", now: NOW }, DEPLOY);
  expect(JSON.stringify(entry.fieldsV1)).toBe(
    '{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:progressDeadlineSeconds":{},"f:replicas":{},"f:revisionHistoryLimit":{},"f:selector":{},"f:strategy":{"f:rollingUpdate":{".":{},"f:maxSurge":{},"f:maxUnavailable":{}},"f:type":{}},"f:template":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"alpine\\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:ports":{".":{},"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{},"f:protocol":{}}},"f:resources":{},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}}}',
  );
});

test("an update that changes nothing keeps the entries and their times", async () => {
  expect(await managedFieldsAfterUpdate(created, cm({ a: "1" }), { manager: "kubectl-create", now: LATER }, CM) as unknown[]).toEqual(
    created.metadata.managedFields!,
  );
});

test("the same manager's later update adds to its entry and bumps its time", async () => {
  const fields = await managedFieldsAfterUpdate(created, cm({ a: "1", b: "2" }), { manager: "kubectl-create", now: LATER }, CM);
  expect(fields).toMatchObject([{ manager: "kubectl-create", time: LATER, fieldsV1: { "f:data": { ".": {}, "f:a": {}, "f:b": {} } } }]);
});

test("removing a field removes it from its owners", async () => {
  const { data: _data, ...withoutData } = cm({});
  const fields = await managedFieldsAfterUpdate(created, withoutData, { manager: "editor", now: LATER }, CM);
  expect(fields).toEqual([]);
});

test("4.6.5: managedFields [{}] resets ownership before the writer's own change is recorded", async () => {
  const fields = await managedFieldsAfterUpdate(created, cm({ a: "1", b: "2" }, [{}]), { manager: "resetter", now: LATER }, CM);
  expect(fields).toMatchObject([{ manager: "resetter", fieldsV1: { "f:data": { "f:b": {} } } }]);
  expect(await managedFieldsAfterUpdate(created, cm({ a: "1" }, [{}]), { manager: "resetter", now: LATER }, CM)).toEqual([]);
});

test("4.6.5: an empty managedFields list changes nothing", async () => {
  expect(await managedFieldsAfterUpdate(created, cm({ a: "1" }, []), { manager: "x", now: LATER }, CM) as unknown[]).toEqual(
    created.metadata.managedFields!,
  );
});

test("4.6.5: a valid managedFields list replaces the stored entries", async () => {
  const replacement = [{
    manager: "someone",
    operation: "Apply",
    apiVersion: "v1",
    fieldsType: "FieldsV1",
    fieldsV1: { "f:data": { "f:a": {} } },
  }];
  expect(await managedFieldsAfterUpdate(created, cm({ a: "1" }, replacement), { manager: "x", now: LATER }, CM)).toEqual(replacement);
});

test("a status write records its entry with subresource status and ignores managedFields in the body", async () => {
  const live: KubeObject = { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "d", managedFields: [] }, spec: { replicas: 1 } };
  const next = { ...live, metadata: { ...live.metadata, managedFields: [{}] }, status: { replicas: 1 } };
  expect(await managedFieldsAfterUpdate(live, next, { manager: "kcm", now: NOW }, { ...DEPLOY, subresource: "status" })).toEqual([
    {
      manager: "kcm",
      operation: "Update",
      apiVersion: "apps/v1",
      time: NOW,
      fieldsType: "FieldsV1",
      fieldsV1: { "f:status": { ".": {}, "f:replicas": {} } },
      subresource: "status",
    },
  ]);
});

test("more than ten Update managers fold the oldest into ancient-changes", async () => {
  let obj = cm({});
  for (let i = 0; i < 11; i++) {
    const next = cm({ ...(obj.data as Record<string, string>), [`k${i}`]: "v" }, obj.metadata.managedFields);
    next.metadata.managedFields = await managedFieldsAfterUpdate(obj, next, {
      manager: `m${i}`,
      now: `2024-01-01T00:00:${String(i).padStart(2, "0")}Z`,
    }, CM);
    obj = next;
  }
  const managers = obj.metadata.managedFields as { manager: string; fieldsV1: unknown }[];
  expect(managers.length).toBe(10);
  expect(managers[0]).toMatchObject({ manager: "ancient-changes", fieldsV1: { "f:data": { "f:k0": {}, "f:k1": {} } } });
});

test("4.6.8: after a field turns from atomic to granular its applier keeps the field but not its children", async () => {
  const schema = (atomic: boolean) => ({
    type: "object" as const,
    properties: {
      metadata: { ref: "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta" },
      spec: {
        type: "object" as const,
        ...(atomic ? { "x-kubernetes-map-type": "atomic" as const } : {}),
        properties: { a: { type: "string" as const }, b: { type: "string" as const } },
      },
    },
  });
  const atomicScope = oneVersionScope("v1", false, typeFromSchema(schema(true)));
  const granularScope = { ...atomicScope, type: typeFromSchema(schema(false)) };
  const a = await applyConfiguration(
    null,
    { metadata: { name: "x" }, spec: { a: "1", b: "1" } },
    { manager: "a", force: false, now: NOW },
    atomicScope,
  );
  const b = await applyConfiguration(
    a,
    { metadata: { name: "x" }, spec: { b: "2" } },
    { manager: "b", force: false, now: NOW },
    granularScope,
  );
  expect(b.spec).toEqual({ a: "1", b: "2" });
  expect((b.metadata.managedFields as { manager: string; fieldsV1: unknown }[]).map((e) => [e.manager, e.fieldsV1])).toEqual([
    ["a", { "f:spec": {} }],
    ["b", { "f:spec": { "f:b": {} } }],
  ]);
});

test("a create that sent no managers gets its entries at once, without a promise; an update's may wait for a conversion", () => {
  const entries = managedFieldsAfterUpdate(null, cm({ a: "1" }), { manager: "kubectl-create", now: NOW }, CM);
  expect(Array.isArray(entries)).toBe(true);
  expect(managedFieldsAfterUpdate(created, cm({ a: "2" }), { manager: "kubectl-create", now: LATER }, CM)).toBeInstanceOf(Promise);
});
