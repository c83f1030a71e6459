/**
 * Server-side apply across a CRD's versions: widgets are stored in v1 (spec.color) and served in v2 too
 * (spec.paint.color), converted by a webhook. kube's versionConverter converts the live and new objects to each
 * manager's version through the CRD's converter (the webhook), so the two spellings of one field conflict and move
 * on force; a conversion that fails, or a version the CRD does not list (crConverter.ConvertToVersion's error,
 * not a missing version), fails an apply with the converter's message and clears managedFields on other writes
 * (kube 1.26's FieldManager.UpdateNoErrors).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createNamespace, type Json, sendJson } from "./_api.ts";
import { type HttpsFixture, startHttpsFixture } from "./_https-fixture.ts";
import { kubectlOk } from "./_kubectl.ts";
import { startServer, type TestServer } from "./harness.ts";

const NS = "ssa-crd";
const V1 = `/apis/example.com/v1/namespaces/${NS}/widgets`;
const V2 = `/apis/example.com/v2/namespaces/${NS}/widgets`;
const APPLY = "application/apply-patch+yaml";
let server: TestServer;
let webhook: HttpsFixture;
/** While set, the webhook answers every review with this failure message. */
let failure = "";

function toVersion(obj: Json, desired: string): Json {
  const { spec = {}, ...rest } = obj;
  const color = spec.color ?? spec.paint?.color;
  return { ...rest, apiVersion: desired, spec: desired === "example.com/v2" ? { paint: { color } } : { color } };
}

async function convert(request: Request): Promise<Response> {
  const review = await request.json();
  const { uid, desiredAPIVersion, objects } = review.request;
  const response = failure ? { uid, result: { status: "Failure", message: failure } } : {
    uid,
    result: { status: "Success" },
    convertedObjects: objects.map((o: Json) => toVersion(o, desiredAPIVersion)),
  };
  return Response.json({ apiVersion: review.apiVersion, kind: "ConversionReview", response });
}

beforeAll(async () => {
  webhook = await startHttpsFixture(convert);
  server = await startServer();
  await createNamespace(server, NS);
  const schema = {
    openAPIV3Schema: { type: "object", properties: { spec: { type: "object", "x-kubernetes-preserve-unknown-fields": true } } },
  };
  const crd = {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "widgets.example.com" },
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names: { plural: "widgets", kind: "Widget" },
      conversion: {
        strategy: "Webhook",
        webhook: {
          conversionReviewVersions: ["v1"],
          clientConfig: { url: `${webhook.url}/convert`, caBundle: Buffer.from(webhook.caPem).toString("base64") },
        },
      },
      versions: ["v1", "v2"].map((name) => ({ name, served: true, storage: name === "v1", schema })),
    },
  };
  await kubectlOk(server, ["apply", "-f", "-"], JSON.stringify(crd));
  await kubectlOk(server, ["wait", "--for", "condition=established", "--timeout=10s", "crd/widgets.example.com"]);
});
afterAll(async () => {
  await server?.stop();
  await webhook?.stop();
});

function widget(apiVersion: string, name: string, spec: Json): Json {
  return { apiVersion, kind: "Widget", metadata: { name, namespace: NS }, spec };
}

function applyAs(path: string, manager: string, body: Json) {
  return sendJson(server, "PATCH", `${path}?fieldManager=${manager}`, body, APPLY);
}

/** manager → [apiVersion, fieldsV1] of its entry. */
function owners(obj: Json): Record<string, [string, Json]> {
  return Object.fromEntries((obj.metadata.managedFields ?? []).map((e: Json) => [e.manager, [e.apiVersion, e.fieldsV1]]));
}

test("a v1 apply of spec.color conflicts with the v2 owner of spec.paint.color, named in v2 (converted by the webhook)", async () => {
  expect((await applyAs(`${V2}/w1`, "painter", widget("example.com/v2", "w1", { paint: { color: "red" } }))).status).toBe(201);
  const answer = await applyAs(`${V1}/w1`, "colorist", widget("example.com/v1", "w1", { color: "blue" }));
  expect({ status: answer.status, message: answer.body.message, causes: answer.body.details?.causes }).toEqual({
    status: 409,
    message: 'Apply failed with 1 conflict: conflict with "painter": .spec.paint.color',
    causes: [{ reason: "FieldManagerConflict", message: 'conflict with "painter"', field: ".spec.paint.color" }],
  });
});

test("kubectl --force-conflicts through v1 moves the field from the v2 owner; each entry keeps its apiVersion", async () => {
  await applyAs(`${V2}/w2`, "painter", widget("example.com/v2", "w2", { paint: { color: "red" } }));
  const config = JSON.stringify(widget("example.com/v1", "w2", { color: "blue" }));
  await kubectlOk(server, ["apply", "--server-side", "--force-conflicts", "--field-manager=colorist", "-f", "-"], config);
  const asV2 = JSON.parse(
    await kubectlOk(server, ["get", "widgets.v2.example.com", "-n", NS, "w2", "-o", "json", "--show-managed-fields"]),
  );
  expect(asV2.spec).toEqual({ paint: { color: "blue" } });
  expect(owners(asV2)).toEqual({
    painter: ["example.com/v2", { "f:spec": { "f:paint": {} } }],
    colorist: ["example.com/v1", { "f:spec": { "f:color": {} } }],
  });
});

test("with the webhook failing, an apply needing another manager's version fails with the converter's message (500)", async () => {
  await applyAs(`${V2}/w3`, "painter", widget("example.com/v2", "w3", { paint: { color: "red" } }));
  failure = "paint is dry";
  try {
    const answer = await applyAs(`${V1}/w3`, "labeler", {
      ...widget("example.com/v1", "w3", {}),
      metadata: { name: "w3", labels: { a: "b" } },
    });
    expect({ status: answer.status, reason: answer.body.reason, message: answer.body.message }).toEqual({
      status: 500,
      reason: undefined,
      message: "conversion webhook for example.com/v1, Kind=Widget failed: paint is dry",
    });
    // A non-apply write through the storage version succeeds, its managedFields cleared (FieldManager.UpdateNoErrors).
    const patched = await sendJson(
      server,
      "PATCH",
      `${V1}/w3?fieldManager=labeler`,
      { metadata: { labels: { a: "b" } } },
      "application/merge-patch+json",
    );
    expect(patched.status).toBe(200);
    expect(patched.body.metadata.managedFields).toBeUndefined();
  } finally {
    failure = "";
  }
});

test("after the CRD drops a version, its managers' entries fail applies and clear on other writes (crConverter.ConvertToVersion: an invalid group/version is no missing version)", async () => {
  const gadgets = (versions: string[]) => ({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "gadgets.example.com" },
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names: { plural: "gadgets", kind: "Gadget" },
      versions: versions.map((name) => ({
        name,
        served: true,
        storage: name === "v1",
        schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } },
      })),
    },
  });
  await kubectlOk(server, ["apply", "-f", "-"], JSON.stringify(gadgets(["v1", "v2"])));
  await kubectlOk(server, ["wait", "--for", "condition=established", "--timeout=10s", "crd/gadgets.example.com"]);
  const gadget = (apiVersion: string, spec: Json) => ({ apiVersion, kind: "Gadget", metadata: { name: "g", namespace: NS }, spec });
  const path = (version: string) => `/apis/example.com/${version}/namespaces/${NS}/gadgets/g`;
  expect((await applyAs(path("v2"), "old", gadget("example.com/v2", { size: 1 }))).status).toBe(201);
  await kubectlOk(server, ["apply", "-f", "-"], JSON.stringify(gadgets(["v1"])));
  // The CRD controller serves the new version list in one step: v2 gone means v1 serves the new definition.
  while ((await sendJson(server, "GET", path("v2"))).status !== 404) await Bun.sleep(50);
  const answer = await applyAs(path("v1"), "new", gadget("example.com/v1", { size: 2 }));
  expect({ status: answer.status, reason: answer.body.reason, message: answer.body.message }).toEqual({
    status: 500,
    reason: undefined,
    message: "request to convert CR to an invalid group/version: example.com/v2",
  });
  const patched = await sendJson(server, "PATCH", `${path("v1")}?fieldManager=new`, { spec: { size: 3 } }, "application/merge-patch+json");
  expect(patched.status).toBe(200);
  expect(patched.body.metadata.managedFields).toBeUndefined();
  // With the stale entry gone, applies work again.
  expect((await applyAs(path("v1"), "new", gadget("example.com/v1", { size: 4 }))).status).toBe(200);
});
