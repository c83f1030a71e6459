/**
 * The official JavaScript client (@kubernetes/client-node) against kubun, with the kubeconfig the harness writes:
 * typed CRUD, every patch type, list and watch, an informer stopped and restarted, the generic KubernetesObjectApi
 * (server-side apply with force) and the ApiException it raises for kube's Status errors.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import {
  ApiException,
  AppsV1Api,
  CoreV1Api,
  KubeConfig,
  type KubernetesObject,
  KubernetesObjectApi,
  makeInformer,
  PatchStrategy,
  setHeaderOptions,
  type V1ConfigMap,
  Watch,
} from "@kubernetes/client-node";
import { type AddressInfo, createServer } from "node:net";
import { createNamespace } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

const NS = "js-client";

let server: TestServer;
let kc: KubeConfig;
let core: CoreV1Api;

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NS);
  kc = new KubeConfig();
  kc.loadFromFile(server.kubeconfig);
  core = kc.makeApiClient(CoreV1Api);
});
afterAll(async () => {
  await server?.stop();
});

const configMap = (name: string, data: Record<string, string> = { key: "value" }): V1ConfigMap => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, namespace: NS },
  data,
});

/** Waits for a condition driven by the client's callbacks; fails after a bounded number of checks. */
async function eventually(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (condition()) return;
    await Bun.sleep(50);
  }
  throw new Error(`never happened: ${what}`);
}

async function apiErrorOf(call: Promise<unknown>): Promise<ApiException<string>> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ApiException) return error as ApiException<string>;
    throw error;
  }
  throw new Error("expected an ApiException");
}

test("CoreV1Api creates, reads, replaces, lists and deletes a ConfigMap", async () => {
  const created = await core.createNamespacedConfigMap({ namespace: NS, body: configMap("crud") });
  expect(created.metadata?.uid).toBeString();
  expect(created.metadata?.creationTimestamp).toBeInstanceOf(Date);
  const read = await core.readNamespacedConfigMap({ name: "crud", namespace: NS });
  expect(read.data).toEqual({ key: "value" });
  const replaced = await core.replaceNamespacedConfigMap({ name: "crud", namespace: NS, body: { ...read, data: { key: "replaced" } } });
  expect(replaced.data).toEqual({ key: "replaced" });
  const list = await core.listNamespacedConfigMap({ namespace: NS, labelSelector: "", limit: 100 });
  expect(list.items.map((item) => item.metadata?.name)).toContain("crud");
  await core.deleteNamespacedConfigMap({ name: "crud", namespace: NS });
  expect((await apiErrorOf(core.readNamespacedConfigMap({ name: "crud", namespace: NS }))).code).toBe(404);
});

test("typed models of fresh objects hold the Go zero values kube always encodes: a Deployment's status, its template's null creationTimestamp, a Service's loadBalancer", async () => {
  const apps = kc.makeApiClient(AppsV1Api);
  const labels = { app: "zero" };
  const deployment = await apps.createNamespacedDeployment({
    namespace: NS,
    body: {
      metadata: { name: "zero" },
      spec: {
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: { containers: [{ name: "c", image: "nginx" }] } },
      },
    },
  });
  expect(deployment.status).toBeDefined();
  expect(deployment.spec?.template.metadata?.creationTimestamp).toBeNull();
  const service = await core.createNamespacedService({
    namespace: NS,
    body: { metadata: { name: "zero" }, spec: { ports: [{ port: 80 }] } },
  });
  expect(service.status?.loadBalancer).toEqual({});
  await apps.deleteNamespacedDeployment({ name: "zero", namespace: NS });
  await core.deleteNamespacedService({ name: "zero", namespace: NS });
});

test("every patch type the client offers: JSON patch, merge patch, strategic merge patch and apply with force", async () => {
  await core.createNamespacedConfigMap({ namespace: NS, body: configMap("patched", { a: "1" }) });
  const patch = (body: unknown, strategy: PatchStrategy, extra: { fieldManager?: string; force?: boolean } = {}) =>
    core.patchNamespacedConfigMap({ name: "patched", namespace: NS, body, ...extra }, setHeaderOptions("Content-Type", strategy));
  expect((await patch([{ op: "add", path: "/data/b", value: "2" }], PatchStrategy.JsonPatch)).data).toEqual({ a: "1", b: "2" });
  expect((await patch({ data: { c: "3" } }, PatchStrategy.MergePatch)).data).toEqual({ a: "1", b: "2", c: "3" });
  expect((await patch({ data: { d: "4" } }, PatchStrategy.StrategicMergePatch)).data).toEqual({ a: "1", b: "2", c: "3", d: "4" });
  const applied = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "patched" }, data: { a: "applied" } };
  const conflict = await apiErrorOf(patch(applied, PatchStrategy.ServerSideApply, { fieldManager: "js-apply" }));
  expect(conflict.code).toBe(409);
  expect(JSON.parse(conflict.body).reason).toBe("Conflict");
  const forced = await patch(applied, PatchStrategy.ServerSideApply, { fieldManager: "js-apply", force: true });
  expect(forced.data?.a).toBe("applied");
  expect(forced.metadata?.managedFields?.map((entry) => entry.manager)).toContain("js-apply");
});

test("Watch streams ADDED, MODIFIED and DELETED events for a namespace", async () => {
  const events: string[] = [];
  const watch = new Watch(kc);
  const controller = await watch.watch(`/api/v1/namespaces/${NS}/configmaps`, { fieldSelector: "metadata.name=watched" }, (phase, obj) => {
    events.push(`${phase} ${obj.metadata.name}`);
  }, () => {});
  await core.createNamespacedConfigMap({ namespace: NS, body: configMap("watched") });
  await core.patchNamespacedConfigMap(
    { name: "watched", namespace: NS, body: { data: { key: "changed" } } },
    setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
  );
  await core.deleteNamespacedConfigMap({ name: "watched", namespace: NS });
  await eventually(() => events.length >= 3, "three watch events");
  controller.abort();
  expect(events).toEqual(["ADDED watched", "MODIFIED watched", "DELETED watched"]);
});

test("an informer lists, follows changes, and after a stop and start catches up with what changed meanwhile", async () => {
  const path = `/api/v1/namespaces/${NS}/configmaps`;
  const informer = makeInformer(
    kc,
    path,
    () => core.listNamespacedConfigMap({ namespace: NS, labelSelector: "informed=yes" }),
    "informed=yes",
  );
  const added = new Set<string>();
  const deleted = new Set<string>();
  informer.on("add", (obj) => added.add(obj.metadata!.name!));
  informer.on("delete", (obj) => deleted.add(obj.metadata!.name!));
  const labelled = (name: string): V1ConfigMap => ({ ...configMap(name), metadata: { name, namespace: NS, labels: { informed: "yes" } } });
  await core.createNamespacedConfigMap({ namespace: NS, body: labelled("before-start") });
  await informer.start();
  await eventually(() => added.has("before-start"), "the listed object");
  await core.createNamespacedConfigMap({ namespace: NS, body: labelled("while-running") });
  await eventually(() => added.has("while-running"), "the watched object");

  await informer.stop();
  await core.createNamespacedConfigMap({ namespace: NS, body: labelled("while-stopped") });
  await core.deleteNamespacedConfigMap({ name: "before-start", namespace: NS });
  await informer.start();
  await eventually(() => added.has("while-stopped") && deleted.has("before-start"), "the changes made while stopped");
  expect(informer.list(NS).map((obj) => obj.metadata?.name).sort()).toEqual(["while-running", "while-stopped"]);
  await informer.stop();
});

test("KubernetesObjectApi creates, reads, lists, applies with force and deletes any kind by its apiVersion and kind", async () => {
  const objects = KubernetesObjectApi.makeApiClient(kc);
  const spec = { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "generic", namespace: NS } };
  const template = { metadata: { labels: { app: "generic" } }, spec: { containers: [{ name: "web", image: "nginx" }] } };
  const created: KubernetesObject = await objects.create({
    ...spec,
    spec: { replicas: 1, selector: { matchLabels: { app: "generic" } }, template },
  });
  expect(created.metadata?.uid).toBeString();
  const read = await objects.read<{ apiVersion: string; kind: string; metadata: { name: string }; spec: { replicas: number } }>(spec);
  expect(read.spec.replicas).toBe(1);
  const listed = await objects.list("apps/v1", "Deployment", NS);
  expect(listed.items.map((item) => item.metadata?.name)).toEqual(["generic"]);
  const apply = { ...spec, spec: { replicas: 3, selector: { matchLabels: { app: "generic" } }, template } };
  const conflict = await apiErrorOf(objects.patch(apply, undefined, undefined, "js-generic", false, PatchStrategy.ServerSideApply));
  expect(conflict.code).toBe(409);
  const forced = await objects.patch<typeof apply>(apply, undefined, undefined, "js-generic", true, PatchStrategy.ServerSideApply);
  expect(forced.spec.replicas).toBe(3);
  const status = await objects.delete(spec);
  expect(status).toBeDefined();
  expect((await apiErrorOf(objects.read(spec))).code).toBe(404);
});

test("kube's Status errors reach the client as ApiException with the code and the Status body", async () => {
  const missing = await apiErrorOf(core.readNamespacedConfigMap({ name: "missing", namespace: NS }));
  expect(missing.code).toBe(404);
  expect(JSON.parse(missing.body)).toMatchObject({
    kind: "Status",
    status: "Failure",
    reason: "NotFound",
    message: 'configmaps "missing" not found',
  });
  await core.createNamespacedConfigMap({ namespace: NS, body: configMap("twice") });
  const exists = await apiErrorOf(core.createNamespacedConfigMap({ namespace: NS, body: configMap("twice") }));
  expect([exists.code, JSON.parse(exists.body).reason]).toEqual([409, "AlreadyExists"]);
  const invalid = await apiErrorOf(core.createNamespacedConfigMap({ namespace: NS, body: configMap("Not_Valid") }));
  expect([invalid.code, JSON.parse(invalid.body).reason]).toEqual([422, "Invalid"]);
});

/** A loopback port nothing listens on now, so a restarted server can come back where the client expects it. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

test("an informer that restarts itself on error (client-node's documented pattern) relists after the server restarts", async () => {
  const port = await freePort();
  const flags = ["--secure-port", String(port)];
  let restarting: TestServer | undefined = await startServer(flags);
  try {
    const config = new KubeConfig();
    config.loadFromFile(restarting.kubeconfig);
    const api = config.makeApiClient(CoreV1Api);
    const informer = makeInformer(
      config,
      "/api/v1/namespaces/default/configmaps",
      () => api.listNamespacedConfigMap({ namespace: "default" }),
    );
    const names = () => informer.list("default").map((obj) => obj.metadata?.name);
    let errors = 0;
    let stopped = false;
    informer.on("error", () => {
      errors++;
      if (!stopped) setTimeout(() => void informer.start().catch(() => {}), 100);
    });
    await api.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "before-restart" }, data: { a: "1" } } });
    await informer.start();
    await eventually(() => names().includes("before-restart"), "the first list");

    const dataDir = restarting.dataDir;
    await restarting.kill9();
    restarting = await startServer(flags, { dataDir });
    await api.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "after-restart" }, data: { a: "2" } } });
    await eventually(() => names().includes("after-restart"), "the object created after the restart");
    expect(errors).toBeGreaterThanOrEqual(1);
    stopped = true;
    await informer.stop();
  } finally {
    await restarting?.stop();
  }
});
