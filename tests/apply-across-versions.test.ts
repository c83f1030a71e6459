/**
 * Server-side apply across the versions of one resource (structured-merge-diff's Updater.update with kube's
 * versionConverter): each manager's fields are compared in the apiVersion it wrote with, by converting the live
 * and new objects there, so the same field under two names conflicts, conflicts name the field as its owner's
 * version spells it, a forced apply takes it over, and every managedFields entry keeps its own apiVersion.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createNamespace, type Json, sendJson } from "./_api.ts";
import { eventsV1Event } from "./_events.ts";
import { kubectlOk } from "./_kubectl.ts";
import { startServer, type TestServer } from "./harness.ts";

const NS = "ssa-versions";
const APPLY = "application/apply-patch+yaml";
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NS);
});
afterAll(async () => {
  await server?.stop();
});

function applyAs(path: string, manager: string, body: Json, force = false) {
  return sendJson(server, "PATCH", `${path}?fieldManager=${manager}${force ? "&force=true" : ""}`, body, APPLY);
}

/** Each manager's entry as [manager, operation, apiVersion, fieldsV1]. */
function entries(obj: Json): [string, string, string, Json][] {
  return obj.metadata.managedFields.map((e: Json) => [e.manager, e.operation, e.apiVersion, e.fieldsV1]);
}

/** manager → apiVersion of its entry. */
function owners(obj: Json): Record<string, string> {
  return Object.fromEntries(entries(obj).map(([manager, , apiVersion]) => [manager, apiVersion]));
}

function conflictOf(answer: { status: number; body: Json }): { status: number; message: string; causes: Json } {
  return { status: answer.status, message: answer.body.message, causes: answer.body.details?.causes };
}

const EVENTS_V1 = `/apis/events.k8s.io/v1/namespaces/${NS}/events`;
const CORE_EVENTS = `/api/v1/namespaces/${NS}/events`;

test("Updater.update converts to the owner's version: a core/v1 apply of message conflicts with the events.k8s.io/v1 owner of note", async () => {
  expect((await applyAs(`${EVENTS_V1}/e1`, "recorder", eventsV1Event("e1", NS, "first"))).status).toBe(201);
  const coreConfig = { apiVersion: "v1", kind: "Event", metadata: { name: "e1", namespace: NS }, message: "second" };
  expect(conflictOf(await applyAs(`${CORE_EVENTS}/e1`, "janitor", coreConfig))).toEqual({
    status: 409,
    message: 'Apply failed with 1 conflict: conflict with "recorder": .note',
    causes: [{ reason: "FieldManagerConflict", message: 'conflict with "recorder"', field: ".note" }],
  });
  const same = await applyAs(`${CORE_EVENTS}/e1`, "janitor", { ...coreConfig, message: "first" });
  expect(same.status).toBe(200);
  // Same value: shared ownership, each entry in its own version (the unchanged apply leaves janitor without a time).
  expect(owners(same.body)).toEqual({ recorder: "events.k8s.io/v1", janitor: "v1" });
});

test("kubectl apply --server-side --force-conflicts through core/v1 takes the events.k8s.io/v1 owner's note; each entry keeps its apiVersion", async () => {
  await applyAs(`${EVENTS_V1}/e2`, "recorder", eventsV1Event("e2", NS, "first"));
  const coreConfig = { apiVersion: "v1", kind: "Event", metadata: { name: "e2", namespace: NS }, message: "taken" };
  const refused = await server.kubectl(["apply", "--server-side", "--field-manager=janitor", "-f", "-"], {
    stdin: JSON.stringify(coreConfig),
  });
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain('conflict with "recorder": .note');
  await kubectlOk(
    server,
    ["apply", "--server-side", "--force-conflicts", "--field-manager=janitor", "-f", "-"],
    JSON.stringify(coreConfig),
  );
  const modern = JSON.parse(
    await kubectlOk(server, ["get", "events.v1.events.k8s.io", "-n", NS, "e2", "-o", "json", "--show-managed-fields"]),
  );
  expect(modern.note).toBe("taken");
  const byManager = Object.fromEntries(entries(modern).map(([manager, , apiVersion, fields]) => [manager, { apiVersion, fields }]));
  expect(byManager.janitor).toEqual({ apiVersion: "v1", fields: { "f:message": {} } });
  expect(byManager.recorder.apiVersion).toBe("events.k8s.io/v1");
  expect(byManager.recorder.fields["f:note"]).toBeUndefined();
  expect(byManager.recorder.fields["f:reason"]).toEqual({});
  // The former owner now conflicts on the field it lost, named in the new owner's version.
  const back = await applyAs(`${EVENTS_V1}/e2`, "recorder", eventsV1Event("e2", NS, "first"));
  expect(conflictOf(back).message).toBe('Apply failed with 1 conflict: conflict with "janitor": .message');
});

test("a non-apply write through one version takes the field from a manager of the other version (Updater.Update)", async () => {
  await applyAs(`${EVENTS_V1}/e3`, "recorder", eventsV1Event("e3", NS, "first"));
  const patched = await sendJson(
    server,
    "PATCH",
    `${CORE_EVENTS}/e3?fieldManager=editor`,
    { message: "edited" },
    "application/merge-patch+json",
  );
  expect(patched.status).toBe(200);
  const byManager = Object.fromEntries(entries(patched.body).map(([manager, , apiVersion, fields]) => [manager, { apiVersion, fields }]));
  expect(byManager.editor).toEqual({ apiVersion: "v1", fields: { "f:message": {} } });
  expect(byManager.recorder.fields["f:note"]).toBeUndefined();
  // printManager names an Update manager with the apiVersion it wrote with; the path is spelled in that version.
  expect(conflictOf(await applyAs(`${EVENTS_V1}/e3`, "recorder", eventsV1Event("e3", NS, "first"))).message).toBe(
    'Apply failed with 1 conflict: conflict with "editor" using v1: .message',
  );
});

test("Updater.prune keeps a field the applier stops applying while a manager of the other version still owns it", async () => {
  await applyAs(`${EVENTS_V1}/e4`, "recorder", eventsV1Event("e4", NS, "shared"));
  const coreConfig = { apiVersion: "v1", kind: "Event", metadata: { name: "e4", namespace: NS }, message: "shared" };
  expect((await applyAs(`${CORE_EVENTS}/e4`, "janitor", coreConfig)).status).toBe(200);
  const { note: _note, ...withoutNote } = eventsV1Event("e4", NS, "shared");
  const reapplied = await applyAs(`${EVENTS_V1}/e4`, "recorder", withoutNote);
  expect(reapplied.status).toBe(200);
  expect(reapplied.body.note).toBe("shared");
  // Now the core/v1 manager is its only owner: its own apply without it removes it.
  const dropped = await applyAs(`${CORE_EVENTS}/e4`, "janitor", { ...coreConfig, message: undefined, reason: "Scheduled" });
  expect(dropped.status).toBe(200);
  expect(dropped.body.message).toBeUndefined();
});

const HPA_V1 = `/apis/autoscaling/v1/namespaces/${NS}/horizontalpodautoscalers`;
const HPA_V2 = `/apis/autoscaling/v2/namespaces/${NS}/horizontalpodautoscalers`;
const scaleTargetRef = { apiVersion: "apps/v1", kind: "Deployment", name: "web" };

function hpaV2(name: string, utilization: number): Json {
  return {
    apiVersion: "autoscaling/v2",
    kind: "HorizontalPodAutoscaler",
    metadata: { name, namespace: NS },
    spec: {
      scaleTargetRef,
      maxReplicas: 5,
      metrics: [{ type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: utilization } } }],
    },
  };
}

function hpaV1(name: string, utilization: number): Json {
  return {
    apiVersion: "autoscaling/v1",
    kind: "HorizontalPodAutoscaler",
    metadata: { name, namespace: NS },
    spec: { scaleTargetRef, maxReplicas: 5, targetCPUUtilizationPercentage: utilization },
  };
}

test("HPA: an autoscaling/v1 targetCPUUtilizationPercentage apply conflicts with the autoscaling/v2 owner of the atomic metrics list", async () => {
  expect((await applyAs(`${HPA_V2}/h1`, "v2-owner", hpaV2("h1", 50))).status).toBe(201);
  expect(conflictOf(await applyAs(`${HPA_V1}/h1`, "v1-owner", hpaV1("h1", 70)))).toEqual({
    status: 409,
    message: 'Apply failed with 1 conflict: conflict with "v2-owner": .spec.metrics',
    causes: [{ reason: "FieldManagerConflict", message: 'conflict with "v2-owner"', field: ".spec.metrics" }],
  });
  expect((await applyAs(`${HPA_V1}/h1`, "v1-owner", hpaV1("h1", 50))).status).toBe(200);
});

test("HPA: forced through v1, the v2 owner loses metrics, and a later v2 change conflicts with the v1 owner's field", async () => {
  await applyAs(`${HPA_V2}/h2`, "v2-owner", hpaV2("h2", 50));
  await kubectlOk(
    server,
    ["apply", "--server-side", "--force-conflicts", "--field-manager=v1-owner", "-f", "-"],
    JSON.stringify(hpaV1("h2", 70)),
  );
  const v2 = JSON.parse(
    await kubectlOk(server, ["get", "horizontalpodautoscalers.v2.autoscaling", "-n", NS, "h2", "-o", "json", "--show-managed-fields"]),
  );
  expect(v2.spec.metrics[0].resource.target.averageUtilization).toBe(70);
  const byManager = Object.fromEntries(entries(v2).map(([manager, , apiVersion, fields]) => [manager, { apiVersion, fields }]));
  expect(byManager["v1-owner"].apiVersion).toBe("autoscaling/v1");
  expect(byManager["v1-owner"].fields["f:spec"]["f:targetCPUUtilizationPercentage"]).toEqual({});
  expect(byManager["v2-owner"].apiVersion).toBe("autoscaling/v2");
  expect(byManager["v2-owner"].fields["f:spec"]["f:metrics"]).toBeUndefined();
  expect(conflictOf(await applyAs(`${HPA_V2}/h2`, "v2-owner", hpaV2("h2", 90))).message).toBe(
    'Apply failed with 1 conflict: conflict with "v1-owner": .spec.targetCPUUtilizationPercentage',
  );
});

test("a managedFields entry of a version the server does not serve is dropped at the next write (versionConverter.IsMissingVersionError)", async () => {
  const created = await applyAs(`${HPA_V2}/h3`, "v2-owner", hpaV2("h3", 50));
  const stale = {
    manager: "old-controller",
    operation: "Update",
    apiVersion: "autoscaling/v2beta2",
    time: "2020-01-01T00:00:00Z",
    fieldsType: "FieldsV1",
    fieldsV1: { "f:spec": { "f:minReplicas": {} } },
  };
  const body = { ...created.body, metadata: { ...created.body.metadata, managedFields: [...created.body.metadata.managedFields, stale] } };
  const updated = await sendJson(server, "PUT", `${HPA_V2}/h3?fieldManager=writer`, body);
  expect(updated.status).toBe(200);
  expect(owners(updated.body)).toEqual({ "v2-owner": "autoscaling/v2" });
});

test("flowcontrol: a v1beta2 assuredConcurrencyShares apply conflicts with the v1beta3 owner of nominalConcurrencyShares", async () => {
  const level = (version: string, shares: Json) => ({
    apiVersion: `flowcontrol.apiserver.k8s.io/${version}`,
    kind: "PriorityLevelConfiguration",
    metadata: { name: "ssa-shares" },
    spec: { type: "Limited", limited: { ...shares, limitResponse: { type: "Reject" } } },
  });
  const path = (version: string) => `/apis/flowcontrol.apiserver.k8s.io/${version}/prioritylevelconfigurations/ssa-shares`;
  expect((await applyAs(path("v1beta3"), "tuner", level("v1beta3", { nominalConcurrencyShares: 10 }))).status).toBe(201);
  expect(conflictOf(await applyAs(path("v1beta2"), "legacy", level("v1beta2", { assuredConcurrencyShares: 20 }))).message).toBe(
    'Apply failed with 1 conflict: conflict with "tuner": .spec.limited.nominalConcurrencyShares',
  );
  const forced = await applyAs(path("v1beta2"), "legacy", level("v1beta2", { assuredConcurrencyShares: 20 }), true);
  expect(forced.body.spec.limited.assuredConcurrencyShares).toBe(20);
  expect(owners(forced.body)).toEqual({ tuner: "flowcontrol.apiserver.k8s.io/v1beta3", legacy: "flowcontrol.apiserver.k8s.io/v1beta2" });
});
