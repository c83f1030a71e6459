import { afterEach, beforeEach, expect, test } from "bun:test";
import { newForbidden } from "../api/errors.ts";
import { statusErrorOfAsync as failure } from "../api/testing.ts";
import { openSqliteStorage } from "../storage/sqlite/mod.ts";
import type { Storage } from "../storage/storage.ts";
import type { ActorRequest, StoreActor } from "./actor.ts";
import type { AdmittedWrite } from "./admission-hook.ts";
import { builtInCatalog } from "./catalog.ts";
import { Registry } from "./registry.ts";
import { LOOPBACK_USER } from "./store.ts";

const catalog = builtInCatalog();
const configmaps = catalog.byGroupVersionResource("", "v1", "configmaps")!;
let storage: Storage;
let registry: Registry;

beforeEach(async () => {
  storage = openSqliteStorage(":memory:");
  registry = new Registry(storage);
  await registry.store(catalog.byGroupVersionResource("", "v1", "namespaces")!).create("", { metadata: { name: "ns" } });
});
afterEach(() => storage.close());

/** An actor allowed only the verbs given, recording what it was asked. */
function actor(allowed: string[], asked: ActorRequest[]): StoreActor {
  return {
    user: { username: "system:serviceaccount:kube-system:test-controller", groups: ["system:serviceaccounts"] },
    authorize(_type, request) {
      asked.push(request);
      return allowed.includes(request.verb) ? Promise.resolve() : Promise.reject(newForbidden(`${request.verb} refused`, {}));
    },
  };
}

test("registry.as(actor) authorizes each write with kube's verb and hands admission the actor's user", async () => {
  const asked: ActorRequest[] = [];
  const admitted: AdmittedWrite[] = [];
  registry.admission = { admit: (write) => (admitted.push(write), Promise.resolve(false)), validate: () => Promise.resolve() };
  const store = registry.as(actor(["create", "update", "patch", "delete"], asked)).store(configmaps);
  await store.create("ns", { metadata: { name: "a" } });
  await store.update("ns", "a", (live) => ({ ...live!, data: { k: "v" } }), { patch: true });
  await store.delete("ns", "a");
  expect(asked.map((r) => `${r.verb} ${r.namespace}/${r.name}`)).toEqual(["create ns/", "patch ns/a", "delete ns/a"]);
  expect(admitted.map((w) => `${w.operation} ${w.user.username}`)).toEqual([
    "CREATE system:serviceaccount:kube-system:test-controller",
    "UPDATE system:serviceaccount:kube-system:test-controller",
    "DELETE system:serviceaccount:kube-system:test-controller",
  ]);
});

test("a write the actor may not make is refused with its 403 and changes nothing", async () => {
  const store = registry.as(actor([], [])).store(configmaps);
  expect((await failure(store.create("ns", { metadata: { name: "b" } }))).code).toBe(403);
  await expect(registry.store(configmaps).get("ns", "b")).rejects.toThrow('configmaps "b" not found');
});

/** An admission chain that records who each write was admitted as. */
function recordingAdmission(admitted: string[]): Registry["admission"] {
  return {
    admit: (write) => (admitted.push(`${write.operation} ${write.user.username}`), Promise.resolve(false)),
    validate: () => Promise.resolve(),
  };
}

test("the root registry's own writes are admitted as kube's loopback user (AuthorizeClientBearerToken's system:apiserver)", async () => {
  const admitted: string[] = [];
  registry.admission = recordingAdmission(admitted);
  const store = registry.store(configmaps);
  await store.create("ns", { metadata: { name: "server" } });
  await store.update("ns", "server", (live) => ({ ...live!, data: { k: "v" } }));
  await store.delete("ns", "server");
  expect(admitted).toEqual(["CREATE system:apiserver", "UPDATE system:apiserver", "DELETE system:apiserver"]);
  expect(LOOPBACK_USER.groups).toEqual(["system:masters"]);
});

test("only bootstrapWriter() skips admission; views share the admission chain", async () => {
  const admitted: string[] = [];
  registry.admission = recordingAdmission(admitted);
  const bootstrap = registry.bootstrapWriter().store(configmaps);
  await bootstrap.create("ns", { metadata: { name: "bootstrap" } });
  await bootstrap.update("ns", "bootstrap", (live) => ({ ...live!, data: { k: "v" } }));
  await bootstrap.delete("ns", "bootstrap");
  expect(admitted).toEqual([]);
  expect(registry.bootstrapWriter()).toBe(registry.bootstrapWriter());
  await registry.as(actor(["create"], [])).store(configmaps).create("ns", { metadata: { name: "controller" } });
  expect(admitted).toEqual(["CREATE system:serviceaccount:kube-system:test-controller"]);
});

test("a controller's registry cannot skip admission: it has no bootstrap writer, and its writes are refused by admission", async () => {
  const controller = registry.as(actor(["create"], []));
  expect(() => controller.bootstrapWriter()).toThrow(
    "system:serviceaccount:kube-system:test-controller cannot write as the server's bootstrap",
  );
  registry.admission = { admit: () => Promise.resolve(false), validate: () => Promise.reject(newForbidden("refused by admission", {})) };
  expect((await failure(controller.store(configmaps).create("ns", { metadata: { name: "refused" } }))).code).toBe(403);
  await expect(registry.store(configmaps).get("ns", "refused")).rejects.toThrow('configmaps "refused" not found');
});
