/**
 * CRD webhook conversion end to end (apiextensions-apiserver webhook_converter.go): a conversion webhook on
 * loopback (https, trusted through the CRD's caBundle) converts widgets between v1 (spec.color, the storage
 * version) and v2 (spec.paint.color); kubectl reads both versions, writes and watches cross versions, and the
 * webhook's bad answers and absence give kube's 500s.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createNamespace, type Json, openWatch, sendJson } from "./_api.ts";
import { type HttpsFixture, startHttpsFixture } from "./_https-fixture.ts";
import { kubectlOk } from "./_kubectl.ts";
import { startServer, type TestServer } from "./harness.ts";

const NS = "conv";
const V1 = `/apis/example.com/v1/namespaces/${NS}/widgets`;
const V2 = `/apis/example.com/v2/namespaces/${NS}/widgets`;
let server: TestServer;
let webhook: HttpsFixture;
/** Each ConversionReview request the webhook received. */
const reviews: Json[] = [];
/** How the webhook misbehaves next; "" answers correctly. */
let fault = "";

function toVersion(obj: Json, desired: string): Json {
  const { spec = {}, ...rest } = obj;
  const color = spec.color ?? spec.paint?.color;
  const converted = { ...rest, apiVersion: desired, spec: desired === "example.com/v2" ? { paint: { color } } : { color } };
  if (fault === "rename") converted.metadata = { ...converted.metadata, name: "renamed" };
  if (fault === "label") converted.metadata = { ...converted.metadata, labels: { converted: "yes" }, generation: 99 };
  if (fault === "group-version") converted.apiVersion = "example.com/v3";
  return converted;
}

async function convert(request: Request): Promise<Response> {
  const review = await request.json();
  reviews.push(review);
  const { uid, desiredAPIVersion, objects } = review.request;
  const response = fault === "failure" ? { uid, result: { status: "Failure", message: "paint is dry" } } : {
    uid: fault === "uid" ? "someone-else" : uid,
    result: { status: "Success" },
    convertedObjects: (fault === "count" ? [] : objects).map((o: Json) => toVersion(o, desiredAPIVersion)),
  };
  return Response.json({ apiVersion: review.apiVersion, kind: "ConversionReview", response });
}

function widgetsCRD(conversion: Json, storage = "v1"): Json {
  const schema = {
    openAPIV3Schema: { type: "object", properties: { spec: { type: "object", "x-kubernetes-preserve-unknown-fields": true } } },
  };
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "widgets.example.com" },
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names: { plural: "widgets", kind: "Widget" },
      conversion,
      versions: ["v1", "v2"].map((name) => ({ name, served: true, storage: name === storage, schema })),
    },
  };
}

function webhookConversion(url: string): Json {
  return {
    strategy: "Webhook",
    webhook: { conversionReviewVersions: ["v1"], clientConfig: { url, caBundle: Buffer.from(webhook.caPem).toString("base64") } },
  };
}

function widget(apiVersion: string, name: string, spec: Json): string {
  return JSON.stringify({ apiVersion, kind: "Widget", metadata: { name, namespace: NS }, spec });
}

async function withFault<T>(name: string, run: () => Promise<T>): Promise<T> {
  fault = name;
  try {
    return await run();
  } finally {
    fault = "";
  }
}

beforeAll(async () => {
  webhook = await startHttpsFixture(convert);
  server = await startServer();
  await createNamespace(server, NS);
  await kubectlOk(server, ["apply", "-f", "-"], JSON.stringify(widgetsCRD(webhookConversion(`${webhook.url}/convert`))));
  await kubectlOk(server, ["wait", "--for", "condition=established", "--timeout=10s", "crd/widgets.example.com"]);
});
afterAll(async () => {
  await server?.stop();
  await webhook?.stop();
});

test("kubectl reads an object stored in v1 as v2 and as v1; the webhook gets a v1 ConversionReview with uid and desiredAPIVersion", async () => {
  await kubectlOk(server, ["apply", "-f", "-"], widget("example.com/v1", "red", { color: "red" }));
  reviews.length = 0;
  const asV2 = JSON.parse(await kubectlOk(server, ["-n", NS, "get", "widgets.v2.example.com", "red", "-o", "json"]));
  expect([asV2.apiVersion, asV2.spec]).toEqual(["example.com/v2", { paint: { color: "red" } }]);
  const asV1 = JSON.parse(await kubectlOk(server, ["-n", NS, "get", "widgets.v1.example.com", "red", "-o", "json"]));
  expect([asV1.apiVersion, asV1.spec]).toEqual(["example.com/v1", { color: "red" }]);
  expect(reviews.length).toBeGreaterThan(0);
  const request = reviews[0];
  expect([request.apiVersion, request.kind, request.request.desiredAPIVersion, request.request.objects[0].apiVersion]).toEqual([
    "apiextensions.k8s.io/v1",
    "ConversionReview",
    "example.com/v2",
    "example.com/v1",
  ]);
  expect(request.request.uid).toMatch(/^[0-9a-f-]{36}$/);
});

test("a create through v2 is stored in the storage version v1, and a watch through v1 sees it converted", async () => {
  const watch = await openWatch(server, `${V1}?watch=1&resourceVersion=0`);
  await kubectlOk(server, ["apply", "-f", "-"], widget("example.com/v2", "blue", { paint: { color: "blue" } }));
  const events = await watch.until((event) => event.object.metadata.name === "blue");
  await watch.close();
  expect([events.at(-1)!.type, events.at(-1)!.object.apiVersion, events.at(-1)!.object.spec]).toEqual(["ADDED", "example.com/v1", {
    color: "blue",
  }]);
  const viaV2Watch = await openWatch(server, `${V2}?watch=1&resourceVersion=0`);
  const v2Events = await viaV2Watch.until((event) => event.object.metadata.name === "blue");
  await viaV2Watch.close();
  expect(v2Events.at(-1)!.object.spec).toEqual({ paint: { color: "blue" } });
});

test("a merge patch through v2 converts the stored object there and back", async () => {
  await kubectlOk(server, [
    "-n",
    NS,
    "patch",
    "widgets.v2.example.com",
    "blue",
    "--type=merge",
    "-p",
    '{"spec":{"paint":{"color":"navy"}}}',
  ]);
  const asV1 = JSON.parse(await kubectlOk(server, ["-n", NS, "get", "widgets.v1.example.com", "blue", "-o", "json"]));
  expect(asV1.spec).toEqual({ color: "navy" });
});

test("a list through v2 converts its items in one ConversionReview (getObjectsToConvert)", async () => {
  reviews.length = 0;
  const list = await sendJson(server, "GET", V2);
  expect(list.status).toBe(200);
  expect(list.body.items.map((item: Json) => [item.metadata.name, item.spec.paint.color])).toEqual([["blue", "navy"], ["red", "red"]]);
  expect(reviews.map((review) => review.request.objects.length)).toEqual([2]);
});

test("a webhook may change labels and annotations only; other metadata is restored (restoreObjectMeta)", async () => {
  const read = await withFault("label", () => sendJson(server, "GET", `${V2}/red`));
  expect(read.body.metadata.labels).toEqual({ converted: "yes" });
  expect(read.body.metadata.generation).toBe(1);
});

test("bad webhook answers are kube's 500s: uid, result, object count, groupVersion, identity", async () => {
  const cases: [string, string][] = [
    ["uid", 'conversion webhook for example.com/v1, Kind=Widget failed: expected response.uid="'],
    ["failure", "conversion webhook for example.com/v1, Kind=Widget failed: paint is dry"],
    ["count", "conversion webhook for example.com/v1, Kind=Widget returned 0 objects, expected 1"],
    [
      "group-version",
      "conversion webhook for example.com/v1, Kind=Widget returned invalid object at index 0: invalid groupVersion (expected example.com/v2, received example.com/v3)",
    ],
    ["rename", "conversion webhook for example.com/v1, Kind=Widget returned invalid object: must have the same name: red != renamed"],
  ];
  for (const [name, message] of cases) {
    const answer = await withFault(name, () => sendJson(server, "GET", `${V2}/red`));
    expect([name, answer.status, answer.body.reason]).toEqual([name, 500, "InternalError"]);
    expect(answer.body.message).toStartWith(`Internal error occurred: ${message}`);
  }
  const listed = await withFault("rename", () => sendJson(server, "GET", V2));
  expect(listed.body.message).toContain(
    "conversion webhook for example.com/v1, Kind=WidgetList returned invalid converted object at index 1: must have the same name",
  );
});

test("a webhook that is down fails reads and cross-version writes with 500; same-version reads need no webhook", async () => {
  await webhook.stop();
  try {
    const read = await sendJson(server, "GET", `${V2}/red`);
    expect(read.status).toBe(500);
    expect(read.body.message).toStartWith(
      `Internal error occurred: conversion webhook for example.com/v1, Kind=Widget failed: Post "${webhook.url}/convert?timeout=30s": `,
    );
    const created = await sendJson(server, "POST", V2, JSON.parse(widget("example.com/v2", "green", { paint: { color: "green" } })));
    expect(created.status).toBe(500);
    expect(created.body.message).toContain("conversion webhook for example.com/v2, Kind=Widget failed");
    expect((await sendJson(server, "GET", `${V2}/green`)).status).toBe(404);
    expect((await sendJson(server, "GET", `${V1}/red`)).body.spec).toEqual({ color: "red" });
  } finally {
    webhook = await startHttpsFixture(convert);
  }
});

test("moving the storage version to v2 records it in status.storedVersions after v1", async () => {
  const crd = widgetsCRD(webhookConversion(`${webhook.url}/convert`), "v2");
  await kubectlOk(server, ["apply", "-f", "-"], JSON.stringify(crd));
  const stored = await kubectlOk(server, ["get", "crd", "widgets.example.com", "-o", "jsonpath={.status.storedVersions}"]);
  expect(JSON.parse(stored)).toEqual(["v1", "v2"]);
  const asV1 = JSON.parse(await kubectlOk(server, ["-n", NS, "get", "widgets.v1.example.com", "red", "-o", "json"]));
  expect(asV1.spec).toEqual({ color: "red" });
});

test("a webhook named by Service (resolved through its Endpoints, TLS verified as <name>.<namespace>.svc) with conversionReviewVersions v1beta1", async () => {
  const serviceWebhook = await startHttpsFixture(convert, [`converter.${NS}.svc`]);
  try {
    const port = Number(new URL(serviceWebhook.url).port);
    const backing = [
      {
        apiVersion: "v1",
        kind: "Service",
        metadata: { name: "converter", namespace: NS },
        spec: { ports: [{ name: "https", port: 443, targetPort: port }] },
      },
      {
        apiVersion: "v1",
        kind: "Endpoints",
        metadata: { name: "converter", namespace: NS },
        subsets: [{ addresses: [{ ip: "127.0.0.1" }], ports: [{ name: "https", port }] }],
      },
    ];
    for (const object of backing) await kubectlOk(server, ["apply", "-f", "-"], JSON.stringify(object));
    const conversion = {
      strategy: "Webhook",
      webhook: {
        conversionReviewVersions: ["v1beta1"],
        clientConfig: {
          service: { namespace: NS, name: "converter", path: "/convert" },
          caBundle: Buffer.from(serviceWebhook.caPem).toString("base64"),
        },
      },
    };
    const crd = widgetsCRD(conversion);
    crd.metadata.name = "gizmos.example.com";
    crd.spec.names = { plural: "gizmos", kind: "Gizmo" };
    await kubectlOk(server, ["apply", "-f", "-"], JSON.stringify(crd));
    await kubectlOk(server, ["wait", "--for", "condition=established", "--timeout=10s", "crd/gizmos.example.com"]);
    await kubectlOk(
      server,
      ["apply", "-f", "-"],
      JSON.stringify({ apiVersion: "example.com/v1", kind: "Gizmo", metadata: { name: "g", namespace: NS }, spec: { color: "teal" } }),
    );
    reviews.length = 0;
    const asV2 = JSON.parse(await kubectlOk(server, ["-n", NS, "get", "gizmos.v2.example.com", "g", "-o", "json"]));
    expect(asV2.spec).toEqual({ paint: { color: "teal" } });
    expect(reviews[0].apiVersion).toBe("apiextensions.k8s.io/v1beta1");
  } finally {
    await serviceWebhook.stop();
  }
});
