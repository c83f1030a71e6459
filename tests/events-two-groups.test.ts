/**
 * events.k8s.io/v1 and core/v1 Events are one stored resource, as kube-apiserver 1.26 serves them: both groups'
 * REST storage is the core event registry (pkg/registry/core/event/storage), the resources cohabit in the storage
 * factory (AddCohabitatingResources), and reads convert with Convert_core_Event_To_v1_Event and writes with
 * Convert_v1_Event_To_core_Event (pkg/apis/events/v1/conversion.go).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";
import { eventsV1Event } from "./_events.ts";
import { createNamespace, getJson, openWatch, sendJson } from "./_api.ts";
import { base64Patch, configurationFor, reply, startWebhookServer, type TestWebhookServer } from "../admission-plugins/_webhook/testing.ts";

const NS = "evs";
const CORE = `/api/v1/namespaces/${NS}/events`;
const MODERN = `/apis/events.k8s.io/v1/namespaces/${NS}/events`;

let server: TestServer;
let hook: TestWebhookServer | undefined;
beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NS);
});
afterAll(async () => {
  await server?.stop();
  await hook?.close();
});

const coreEvent = (name: string) => ({
  apiVersion: "v1",
  kind: "Event",
  metadata: { name },
  involvedObject: { kind: "Pod", namespace: NS, name: "web" },
  reason: "Pulled",
  message: "image pulled",
  source: { component: "kubelet", host: "n1" },
  count: 3,
  type: "Normal",
});

const modernEvent = (name: string) => eventsV1Event(name, NS, "assigned to n1");

test("Convert_core_Event_To_v1_Event: a core Event created by kubectl is read, listed and printed through events.k8s.io/v1", async () => {
  await kubectlOk(server, ["create", "-f", "-"], JSON.stringify({ ...coreEvent("ev1"), metadata: { name: "ev1", namespace: NS } }));
  const core = await getJson(server, `${CORE}/ev1`);
  const modern = await getJson(server, `${MODERN}/ev1`);
  expect(modern).toMatchObject({
    apiVersion: "events.k8s.io/v1",
    kind: "Event",
    regarding: { kind: "Pod", namespace: NS, name: "web" },
    reason: "Pulled",
    note: "image pulled",
    deprecatedSource: { component: "kubelet", host: "n1" },
    deprecatedCount: 3,
    type: "Normal",
  });
  expect(modern.message).toBeUndefined();
  expect(modern.involvedObject).toBeUndefined();
  expect(modern.metadata.uid).toBe(core.metadata.uid);
  expect(modern.metadata.resourceVersion).toBe(core.metadata.resourceVersion);
  const listed = await getJson(server, MODERN);
  expect(listed.items.map((item: { metadata: { name: string } }) => item.metadata.name)).toContain("ev1");
  expect(await kubectlOk(server, ["get", "events.v1.events.k8s.io", "-n", NS, "-o", "name"])).toContain("event.events.k8s.io/ev1");
  expect(await kubectlOk(server, ["get", "events.v1.events.k8s.io", "ev1", "-n", NS])).toContain("image pulled");
});

test("Convert_v1_Event_To_core_Event: an events.k8s.io/v1 Event is a core Event with core's field names", async () => {
  const created = await sendJson(server, "POST", MODERN, modernEvent("ev2"));
  expect(created.status).toBe(201);
  const core = await getJson(server, `${CORE}/ev2`);
  expect(core).toMatchObject({
    apiVersion: "v1",
    involvedObject: { kind: "Pod", namespace: NS, name: "web" },
    message: "assigned to n1",
    reportingComponent: "example.com/ctl",
    reportingInstance: "ctl-0",
    action: "Scheduling",
    eventTime: "2026-01-01T00:00:00.000000Z",
  });
  expect(core.metadata.resourceVersion).toBe(created.body.metadata.resourceVersion);
  const table = await kubectlOk(server, ["get", "events", "-n", NS, "--field-selector", "involvedObject.name=web", "-o", "name"]);
  expect(table).toContain("event/ev2");
});

test("one collection: a core update or an events.k8s.io patch is the other's next resourceVersion, a delete through one is a 404 in the other", async () => {
  await sendJson(server, "POST", CORE, coreEvent("ev3"));
  const core = await getJson(server, `${CORE}/ev3`);
  const updated = await sendJson(server, "PUT", `${CORE}/ev3`, { ...core, message: "updated", count: 4 });
  expect(updated.status).toBe(200);
  const modern = await getJson(server, `${MODERN}/ev3`);
  expect({ note: modern.note, deprecatedCount: modern.deprecatedCount }).toEqual({ note: "updated", deprecatedCount: 4 });
  expect(modern.metadata.resourceVersion).toBe(updated.body.metadata.resourceVersion);
  const patched = await sendJson(
    server,
    "PATCH",
    `${MODERN}/ev3`,
    { metadata: { labels: { seen: "yes" } } },
    "application/merge-patch+json",
  );
  expect(patched.status).toBe(200);
  const afterPatch = await getJson(server, `${CORE}/ev3`);
  expect(afterPatch.metadata.labels).toEqual({ seen: "yes" });
  expect(afterPatch.metadata.resourceVersion).toBe(patched.body.metadata.resourceVersion);
  const deleted = await sendJson(server, "DELETE", `${MODERN}/ev3`);
  expect(deleted.status).toBe(200);
  expect((await sendJson(server, "GET", `${CORE}/ev3`)).status).toBe(404);
});

test("ValidateEventUpdate: through events.k8s.io/v1 the note (core's message) is immutable, and the refused update changes nothing", async () => {
  await sendJson(server, "POST", CORE, coreEvent("ev7"));
  const modern = await getJson(server, `${MODERN}/ev7`);
  const refused = await sendJson(server, "PUT", `${MODERN}/ev7`, { ...modern, note: "rewritten" });
  expect(refused.status).toBe(422);
  expect(refused.body.message).toBe('Event.events.k8s.io "ev7" is invalid: message: Invalid value: "rewritten": field is immutable');
  expect(await getJson(server, `${CORE}/ev7`)).toMatchObject({
    message: "image pulled",
    metadata: { resourceVersion: modern.metadata.resourceVersion },
  });
});

test("ValidateEventCreate: events.k8s.io/v1 requires the reporting fields and refuses legacy ones; core/v1 keeps legacyValidateEvent only", async () => {
  const refused = await sendJson(server, "POST", MODERN, {
    apiVersion: "events.k8s.io/v1",
    kind: "Event",
    metadata: { name: "bare" },
    regarding: { kind: "Pod", namespace: NS, name: "web" },
    deprecatedCount: 2,
  });
  expect(refused.status).toBe(422);
  expect(refused.body.details.causes.map((c: { field: string; reason: string }) => `${c.reason} ${c.field}`)).toEqual([
    "FieldValueRequired eventTime",
    "FieldValueInvalid type",
    "FieldValueInvalid count",
  ]);
  const legacy = await sendJson(server, "POST", CORE, {
    ...coreEvent("legacy"),
    involvedObject: { kind: "Pod", namespace: "other", name: "x" },
  });
  expect(legacy.status).toBe(422);
  expect(legacy.body.message).toBe(
    'Event "legacy" is invalid: involvedObject.namespace: Invalid value: "other": does not match event.namespace',
  );
  expect((await sendJson(server, "GET", `${MODERN}/bare`)).status).toBe(404);
});

test("core/v1 Event names follow BeforeCreate's path-segment rule, events.k8s.io/v1 names ValidateObjectMeta's DNS subdomain rule", async () => {
  expect((await sendJson(server, "POST", CORE, coreEvent("Pod_Web.1"))).status).toBe(201);
  const refused = await sendJson(server, "POST", MODERN, modernEvent("Pod_Web.2"));
  expect(refused.status).toBe(422);
  expect(refused.body.details.causes.map((c: { field: string }) => c.field)).toEqual(["metadata.name"]);
});

test("ValidateEventUpdate checks only ValidateObjectMetaUpdate: a core Event named outside the DNS subdomain rule is updated and patched through events.k8s.io/v1", async () => {
  const name = "UPPER:case";
  expect((await sendJson(server, "POST", CORE, coreEvent(name))).status).toBe(201);
  const path = `${MODERN}/${encodeURIComponent(name)}`;
  const modern = await getJson(server, path);
  const put = await sendJson(server, "PUT", path, { ...modern, metadata: { ...modern.metadata, labels: { via: "put" } } });
  expect(put.status).toBe(200);
  const patched = await sendJson(server, "PATCH", path, { metadata: { labels: { via: "patch" } } }, "application/merge-patch+json");
  expect(patched.status).toBe(200);
  expect((await getJson(server, `${CORE}/${encodeURIComponent(name)}`)).metadata.labels).toEqual({ via: "patch" });
  // Create keeps ValidateEventCreate's rule, also when a PUT creates (AllowCreateOnUpdate).
  const createdByPut = await sendJson(server, "PUT", `${MODERN}/${encodeURIComponent("NEW:case")}`, modernEvent("NEW:case"));
  expect(createdByPut.status).toBe(422);
});

test("one watch stream: events.k8s.io watchers see core writes in their own shape, and core watchers see events.k8s.io writes", async () => {
  const list = await getJson(server, MODERN);
  const modernWatch = await openWatch(server, `${MODERN}?watch=1&resourceVersion=${list.metadata.resourceVersion}`);
  const coreWatch = await openWatch(server, `${CORE}?watch=1&resourceVersion=${list.metadata.resourceVersion}`);
  const fromCore = await sendJson(server, "POST", CORE, coreEvent("ev4"));
  const fromModern = await sendJson(server, "POST", MODERN, modernEvent("ev5"));
  const seenModern = await modernWatch.until((e) => e.object.metadata.name === "ev5");
  const seenCore = await coreWatch.until((e) => e.object.metadata.name === "ev5");
  const summary = (events: { type: string; object: { apiVersion: string; metadata: { name: string; resourceVersion: string } } }[]) =>
    events.map((e) => `${e.type} ${e.object.apiVersion} ${e.object.metadata.name}@${e.object.metadata.resourceVersion}`);
  const rv4 = fromCore.body.metadata.resourceVersion;
  const rv5 = fromModern.body.metadata.resourceVersion;
  expect(summary(seenModern)).toEqual([`ADDED events.k8s.io/v1 ev4@${rv4}`, `ADDED events.k8s.io/v1 ev5@${rv5}`]);
  expect(summary(seenCore)).toEqual([`ADDED v1 ev4@${rv4}`, `ADDED v1 ev5@${rv5}`]);
  expect(seenModern[0]!.object.note).toBe("image pulled");
  expect(seenCore[1]!.object.message).toBe("assigned to n1");
  await modernWatch.close();
  await coreWatch.close();
});

test("events.k8s.io field selectors (regarding.*, reportingController) select Events written through core/v1", async () => {
  await sendJson(server, "POST", CORE, { ...coreEvent("ev6"), involvedObject: { kind: "Pod", namespace: NS, name: "n9" } });
  const byRegarding = await getJson(server, `${MODERN}?fieldSelector=regarding.name%3Dn9`);
  expect(byRegarding.items.map((item: { metadata: { name: string } }) => item.metadata.name)).toEqual(["ev6"]);
  const byController = await getJson(server, `${MODERN}?fieldSelector=reportingController%3Dexample.com%2Fctl`);
  expect(byController.items.map((item: { metadata: { name: string } }) => item.metadata.name).sort()).toEqual(["ev2", "ev5"]);
});

test("EquivalentResourceRegistry (keyed by storage prefix): a webhook for core/v1 events sees an events.k8s.io write as a core Event, its patch lands", async () => {
  hook = await startWebhookServer((review) =>
    reply(review, { allowed: true, patchType: "JSONPatch", patch: base64Patch([{ op: "replace", path: "/message", value: "from hook" }]) })
  );
  const configuration = configurationFor("MutatingWebhookConfiguration", "core-events", hook, {
    rules: [{ operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["events"] }],
    objectSelector: { matchLabels: { test: "core-events" } },
  });
  expect((await sendJson(server, "POST", "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations", configuration)).status)
    .toBe(201);
  const labelled = modernEvent("hooked");
  const created = await sendJson(server, "POST", MODERN, { ...labelled, metadata: { name: "hooked", labels: { test: "core-events" } } });
  expect(created.status).toBe(201);
  expect(created.body.note).toBe("from hook");
  expect(hook.calls[0]!.review.request).toMatchObject({
    kind: { group: "", version: "v1", kind: "Event" },
    resource: { group: "", version: "v1", resource: "events" },
    requestKind: { group: "events.k8s.io", version: "v1", kind: "Event" },
    object: { apiVersion: "v1", message: "assigned to n1", reportingComponent: "example.com/ctl" },
  });
});
