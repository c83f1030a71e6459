/** Updates as kube-apiserver 1.26 takes them: unconditional PUTs per kind, immutable Service IPs, Priority on replace, patch errors. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createNamespace, expectStatus, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";

const NS = "updates";
let server: TestServer;

const GIZMOS_CRD = JSON.stringify({
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "gizmos.example.com" },
  spec: {
    group: "example.com",
    scope: "Namespaced",
    names: { plural: "gizmos", singular: "gizmo", kind: "Gizmo", listKind: "GizmoList" },
    versions: [{
      name: "v1",
      served: true,
      storage: true,
      schema: { openAPIV3Schema: { type: "object", properties: { spec: { type: "object", properties: { size: { type: "integer" } } } } } },
    }],
  },
});

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NS);
  await kubectlOk(server, ["apply", "-f", "-"], GIZMOS_CRD);
  await kubectlOk(server, ["wait", "--for", "condition=established", "--timeout=10s", "crd/gizmos.example.com"]);
});
afterAll(() => server.stop());

test('PUT with resourceVersion "0" or none overwrites a ConfigMap or a Node, whose strategies AllowUnconditionalUpdate', async () => {
  await kubectlOk(server, ["-n", NS, "create", "configmap", "overwritten", "--from-literal=a=1"]);
  for (const [resourceVersion, value] of [["0", "2"], [undefined, "3"]]) {
    const answer = await sendJson(server, "PUT", `/api/v1/namespaces/${NS}/configmaps/overwritten`, {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "overwritten", ...(resourceVersion ? { resourceVersion } : {}) },
      data: { a: value },
    });
    expect({ resourceVersion, status: answer.status, data: answer.body.data }).toEqual({
      resourceVersion,
      status: 200,
      data: { a: value },
    });
  }
  expect((await sendJson(server, "POST", "/api/v1/nodes", { apiVersion: "v1", kind: "Node", metadata: { name: "replaced" } })).status).toBe(
    201,
  );
  const node = await sendJson(server, "PUT", "/api/v1/nodes/replaced", {
    apiVersion: "v1",
    kind: "Node",
    metadata: { name: "replaced", resourceVersion: "0", labels: { a: "b" } },
  });
  expect({ status: node.status, labels: node.body.metadata?.labels }).toEqual({ status: 200, labels: { a: "b" } });
});

test("PUT without a resourceVersion of a Lease or a custom resource is a 422 (AllowUnconditionalUpdate false; kube's Store.Update)", async () => {
  const lease = { apiVersion: "coordination.k8s.io/v1", kind: "Lease", metadata: { name: "held" }, spec: { holderIdentity: "a" } };
  expect((await sendJson(server, "POST", `/apis/coordination.k8s.io/v1/namespaces/${NS}/leases`, lease)).status).toBe(201);
  const refused = await sendJson(server, "PUT", `/apis/coordination.k8s.io/v1/namespaces/${NS}/leases/held`, {
    ...lease,
    metadata: { name: "held", resourceVersion: "0" },
    spec: { holderIdentity: "b" },
  });
  expectStatus(
    refused,
    422,
    "Invalid",
    'leases.coordination.k8s.io "held" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
  );

  const gizmo = (size: number) =>
    JSON.stringify({ apiVersion: "example.com/v1", kind: "Gizmo", metadata: { name: "g", namespace: NS }, spec: { size } });
  await kubectlOk(server, ["create", "-f", "-"], gizmo(1));
  const replaced = await sendJson(server, "PUT", `/apis/example.com/v1/namespaces/${NS}/gizmos/g`, JSON.parse(gizmo(2)));
  expectStatus(
    replaced,
    422,
    "Invalid",
    'gizmos.example.com "g" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
  );
  // kubectl replace reads the stored resourceVersion first (its Helper.Replace), so it goes through.
  await kubectlOk(server, ["replace", "-f", "-"], gizmo(2));
  expect(await kubectlOk(server, ["-n", NS, "get", "gizmo", "g", "-o", "jsonpath={.spec.size}"])).toBe("2");
  // A patch needs no resourceVersion: kube's patcher updates the version it read.
  await kubectlOk(server, ["-n", NS, "patch", "gizmo", "g", "--type=merge", "-p", '{"spec":{"size":3}}']);
  expect(await kubectlOk(server, ["-n", NS, "get", "gizmo", "g", "-o", "jsonpath={.spec.size}"])).toBe("3");
});

test("a pod replaced without priority fields, and a client-side to server-side apply upgrade, keep the priority set on create (Priority admitPod on update)", async () => {
  const manifest = (label: string) =>
    JSON.stringify({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "prioritized", namespace: NS, labels: { step: label } },
      spec: { containers: [{ name: "c", image: "nginx" }] },
    });
  await kubectlOk(server, ["apply", "-f", "-"], manifest("created"));
  expect(await kubectlOk(server, ["apply", "--server-side", "-f", "-"], manifest("applied"))).toBe("pod/prioritized serverside-applied\n");
  const stored = JSON.parse(await kubectlOk(server, ["-n", NS, "get", "pod", "prioritized", "-o", "json"]));
  delete stored.spec.priority;
  delete stored.spec.preemptionPolicy;
  stored.metadata.labels.step = "replaced";
  expect(await kubectlOk(server, ["replace", "-f", "-"], JSON.stringify(stored))).toBe("pod/prioritized replaced\n");
  const pod = JSON.parse(await kubectlOk(server, ["-n", NS, "get", "pod", "prioritized", "-o", "json"]));
  expect({ labels: pod.metadata.labels, priority: pod.spec.priority, preemptionPolicy: pod.spec.preemptionPolicy })
    .toEqual({ labels: { step: "replaced" }, priority: 0, preemptionPolicy: "PreemptLowerPriority" });
});

test("changing a Service's clusterIP is a 422 'may not change once set' (normalizeClusterIPs, ValidateServiceUpdate); kubectl apply --force recreates it", async () => {
  const service = (clusterIP?: string) =>
    JSON.stringify({
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "headless", namespace: NS },
      spec: { ...(clusterIP ? { clusterIP } : {}), ports: [{ port: 80 }], selector: { app: "x" } },
    });
  await kubectlOk(server, ["apply", "-f", "-"], service("None"));
  const changed = await server.kubectl(["apply", "-f", "-"], { stdin: service("10.0.0.12") });
  expect(changed.code).not.toBe(0);
  expect(changed.stderr).toContain(
    'The Service "headless" is invalid: spec.clusterIPs[0]: Invalid value: []string{"10.0.0.12"}: may not change once set',
  );
  const clusterIPs = () =>
    kubectlOk(server, ["-n", NS, "get", "service", "headless", "-o", "jsonpath={.spec.clusterIP} {.spec.clusterIPs[*]}"]);
  expect(await clusterIPs()).toBe("None None");
  await kubectlOk(server, ["apply", "--force", "-f", "-"], service("10.0.0.12"));
  expect(await clusterIPs()).toBe("10.0.0.12 10.0.0.12");
  // A manifest without clusterIP keeps the allocated one (patchAllocatedValues).
  expect(await kubectlOk(server, ["replace", "-f", "-"], service())).toBe("service/headless replaced\n");
  expect(await clusterIPs()).toBe("10.0.0.12 10.0.0.12");
});

test("kubectl patch with a wrongly typed field is kube's 422 naming the patch, and changes nothing (applyPatchToObject, applyPatchToCurrentObject)", async () => {
  await kubectlOk(server, ["-n", NS, "create", "deployment", "typed", "--image=nginx"]);
  const replicas = await server.kubectl(["-n", NS, "patch", "deployment", "typed", "-p", '{"spec":{"replicas":"x"}}']);
  expect({ code: replicas.code, stderr: replicas.stderr }).toEqual({
    code: 1,
    stderr: 'The request is invalid: patch: Invalid value: "map[spec:map[replicas:x]]": unrecognized type: int32\n',
  });
  const labels = await sendJson(
    server,
    "PATCH",
    `/apis/apps/v1/namespaces/${NS}/deployments/typed`,
    { metadata: { labels: "x" } },
    "application/strategic-merge-patch+json",
  );
  expectStatus(
    labels,
    422,
    "Invalid",
    ' "" is invalid: patch: Invalid value: "map[metadata:map[labels:x]]": cannot restore map from string',
  );
  expect(labels.body.details).toEqual({
    causes: [{
      reason: "FieldValueInvalid",
      message: 'Invalid value: "map[metadata:map[labels:x]]": cannot restore map from string',
      field: "patch",
    }],
  });
  // A merge patch echoes the patched object and the JSON decoder's words (jsonPatcher.applyPatchToCurrentObject).
  const merged = await server.kubectl(["-n", NS, "patch", "deployment", "typed", "--type=merge", "-p", '{"spec":{"replicas":"x"}}']);
  expect(merged.code).toBe(1);
  expect(merged.stderr).toMatch(
    /^The request is invalid: patch: Invalid value: "\{\\"apiVersion\\":\\"apps\/v1\\",.*\\"replicas\\":\\"x\\".*": json: cannot unmarshal string into Go struct field DeploymentSpec\.spec\.replicas of type int32\n$/,
  );
  expect(await kubectlOk(server, ["-n", NS, "get", "deployment", "typed", "-o", "jsonpath={.spec.replicas} {.metadata.labels.app}"])).toBe(
    "1 typed",
  );
});
