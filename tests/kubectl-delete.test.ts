/** kubectl delete as kube-apiserver 1.26 answers it: grace periods per kind, DeleteOptions bodies, what DELETE returns. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { encodeProtobufObject, PROTOBUF_MEDIA_TYPE } from "../core/api/protobuf/mod.ts";
import { createNamespace, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";

const NS = "deletes";
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NS);
});
afterAll(() => server.stop());

const pod = (name: string, nodeName?: string) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name },
  spec: { containers: [{ name: "c", image: "nginx" }], ...(nodeName ? { nodeName } : {}) },
});

test("kubectl delete --grace-period of a ConfigMap removes it at once: only pods delete gracefully (rest.BeforeDelete)", async () => {
  await kubectlOk(server, ["-n", NS, "create", "configmap", "graceful"]);
  expect(await kubectlOk(server, ["-n", NS, "delete", "configmap", "graceful", "--grace-period=10", "--wait=false"])).toBe(
    'configmap "graceful" deleted\n',
  );
  expect((await server.request("GET", `/api/v1/namespaces/${NS}/configmaps/graceful`)).status).toBe(404);
});

test("kubectl delete --now of an unscheduled pod returns with the pod gone (pod CheckGracefulDelete forces 0)", async () => {
  expect((await sendJson(server, "POST", `/api/v1/namespaces/${NS}/pods`, pod("pending"))).status).toBe(201);
  expect(await kubectlOk(server, ["-n", NS, "delete", "pod", "pending", "--now"])).toBe('pod "pending" deleted\n');
  expect((await server.request("GET", `/api/v1/namespaces/${NS}/pods/pending`)).status).toBe(404);
});

test("kubectl delete --grace-period of a finished pod returns with the pod gone (pod CheckGracefulDelete forces 0)", async () => {
  expect((await sendJson(server, "POST", `/api/v1/namespaces/${NS}/pods`, pod("finished", "node-a"))).status).toBe(201);
  const status = await sendJson(
    server,
    "PATCH",
    `/api/v1/namespaces/${NS}/pods/finished/status`,
    { status: { phase: "Succeeded" } },
    "application/merge-patch+json",
  );
  expect(status.status).toBe(200);
  expect(await kubectlOk(server, ["-n", NS, "delete", "pod", "finished", "--grace-period=30"])).toBe('pod "finished" deleted\n');
  expect((await server.request("GET", `/api/v1/namespaces/${NS}/pods/finished`)).status).toBe(404);
});

test("DELETE with a grace period of a scheduled running pod keeps it terminating with that grace period", async () => {
  expect((await sendJson(server, "POST", `/api/v1/namespaces/${NS}/pods`, pod("running", "node-a"))).status).toBe(201);
  const answer = await sendJson(server, "DELETE", `/api/v1/namespaces/${NS}/pods/running`, {
    kind: "DeleteOptions",
    apiVersion: "v1",
    gracePeriodSeconds: 45,
  });
  expect(answer.status).toBe(200);
  expect(answer.body.metadata).toMatchObject({ deletionGracePeriodSeconds: 45 });
  expect(answer.body.metadata.deletionTimestamp).toBeDefined();
});

test("DELETE answers the deleted object or a Success Status per kind, as the served OpenAPI documents it (ReturnDeletedObject)", async () => {
  const kinds = [
    { resource: "serviceaccounts", kind: "ServiceAccount", body: {} },
    { resource: "resourcequotas", kind: "ResourceQuota", body: { spec: {} } },
    { resource: "configmaps", kind: "ConfigMap", body: {} },
    { resource: "secrets", kind: "Secret", body: {} },
    { resource: "nodes", kind: "Node", body: {}, cluster: true },
  ];
  const v3 = (await (await server.request("GET", "/openapi/v3/api/v1")).json()) as {
    paths: Record<string, { delete: { responses: { "200": { content: Record<string, { schema: { $ref: string } }> } } } }>;
  };
  for (const { resource, kind, body, cluster } of kinds) {
    const collection = cluster ? `/api/v1/${resource}` : `/api/v1/namespaces/${NS}/${resource}`;
    expect((await sendJson(server, "POST", collection, { apiVersion: "v1", kind, metadata: { name: "answer" }, ...body })).status).toBe(
      201,
    );
    const deleted = await sendJson(server, "DELETE", `${collection}/answer`);
    const documented = v3.paths[`${cluster ? "/api/v1" : "/api/v1/namespaces/{namespace}"}/${resource}/{name}`].delete.responses["200"]
      .content["application/json"].schema.$ref;
    const expectedKind = documented.endsWith(".meta.v1.Status") ? "Status" : kind;
    expect({ resource, status: deleted.status, kind: deleted.body.kind }).toEqual({ resource, status: 200, kind: expectedKind });
    if (expectedKind === "Status") expect(deleted.body).toMatchObject({ status: "Success", details: { name: "answer", kind: resource } });
    else expect(deleted.body.metadata.name).toBe("answer");
  }
  expect(v3.paths["/api/v1/namespaces/{namespace}/serviceaccounts/{name}"].delete.responses["200"].content["application/json"].schema.$ref)
    .toEndWith(".core.v1.ServiceAccount");
});

test("kubectl debug --copy-to --replace deletes the original pod with a protobuf DeleteOptions body (DeleteResource decodes every meta codec)", async () => {
  expect((await sendJson(server, "POST", `/api/v1/namespaces/${NS}/pods`, pod("original"))).status).toBe(201);
  await kubectlOk(server, ["-n", NS, "debug", "original", "--copy-to=copy", "--replace", "--image=busybox", "--profile=general"]);
  expect((await server.request("GET", `/api/v1/namespaces/${NS}/pods/original`)).status).toBe(404);
  expect((await server.request("GET", `/api/v1/namespaces/${NS}/pods/copy`)).status).toBe(200);
});

test("DELETE of a collection takes a protobuf meta.k8s.io/v1 DeleteOptions body; a protobuf body of another kind is a 400", async () => {
  await kubectlOk(server, ["-n", NS, "create", "configmap", "kept"]);
  const deleteOptions = (apiVersion: string, kind: string, fields: Record<string, unknown>) => ({
    body: encodeProtobufObject({ apiVersion, kind, ...fields }, apiVersion, kind).slice(),
    headers: { "Content-Type": PROTOBUF_MEDIA_TYPE, Accept: "application/json" },
  });
  const dryRun = await server.request(
    "DELETE",
    `/api/v1/namespaces/${NS}/configmaps?labelSelector=`,
    deleteOptions("meta.k8s.io/v1", "DeleteOptions", { dryRun: ["All"] }),
  );
  expect(dryRun.status).toBe(200);
  expect(((await dryRun.json()) as { items: { metadata: { name: string } }[] }).items.map((item) => item.metadata.name)).toContain("kept");
  expect((await server.request("GET", `/api/v1/namespaces/${NS}/configmaps/kept`)).status).toBe(200);

  const wrongKind = await server.request(
    "DELETE",
    `/api/v1/namespaces/${NS}/configmaps/kept`,
    deleteOptions("v1", "ConfigMap", { metadata: { name: "kept" } }),
  );
  expect(wrongKind.status).toBe(400);
  expect(await wrongKind.json()).toMatchObject({
    kind: "Status",
    code: 400,
    message: "decoded object cannot be converted to DeleteOptions",
  });
  expect((await server.request("GET", `/api/v1/namespaces/${NS}/configmaps/kept`)).status).toBe(200);
});

test("DELETE with orphanDependents=false of an object its finalizers hold answers 202 with the object; otherwise 200 (DeleteResource)", async () => {
  const held = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "held", finalizers: ["example.com/hold"] } };
  expect((await sendJson(server, "POST", `/api/v1/namespaces/${NS}/configmaps`, held)).status).toBe(201);
  const cascading = await sendJson(server, "DELETE", `/api/v1/namespaces/${NS}/configmaps/held`, {
    kind: "DeleteOptions",
    apiVersion: "v1",
    orphanDependents: false,
  });
  expect({ status: cascading.status, kind: cascading.body.kind, terminating: cascading.body.metadata.deletionTimestamp !== undefined })
    .toEqual({ status: 202, kind: "ConfigMap", terminating: true });
  const again = await sendJson(server, "DELETE", `/api/v1/namespaces/${NS}/configmaps/held`);
  expect({ status: again.status, kind: again.body.kind }).toEqual({ status: 200, kind: "ConfigMap" });
  const released = await sendJson(
    server,
    "PATCH",
    `/api/v1/namespaces/${NS}/configmaps/held`,
    { metadata: { finalizers: null } },
    "application/merge-patch+json",
  );
  expect(released.status).toBe(200);
  expect((await server.request("GET", `/api/v1/namespaces/${NS}/configmaps/held`)).status).toBe(404);
});
