import { afterEach, beforeEach, expect, test } from "bun:test";
import { statusErrorOfAsync as failure } from "../api/testing.ts";
import { openSqliteStorage } from "../storage/sqlite/mod.ts";
import type { Storage } from "../storage/storage.ts";
import { builtInCatalog } from "./catalog.ts";
import { Registry } from "./registry.ts";

const catalog = builtInCatalog();
const configmaps = catalog.byGroupVersionResource("", "v1", "configmaps")!;
const namespaces = catalog.byGroupVersionResource("", "v1", "namespaces")!;
let storage: Storage;
let registry: Registry;
let reads: string[];

beforeEach(() => {
  const opened = openSqliteStorage(":memory:");
  reads = [];
  const get = opened.get.bind(opened);
  opened.get = (key, revision) => (reads.push(key), get(key, revision));
  storage = opened;
  registry = new Registry(storage);
});
afterEach(() => storage.close());

const create = (namespace: string, name: string) => registry.store(configmaps).create(namespace, { metadata: { name } });

test("an open namespace is answered from the followed namespaces without a storage read (kube's namespaceLister in NamespaceLifecycle)", async () => {
  await registry.store(namespaces).create("", { metadata: { name: "team" } });
  await create("team", "first");
  reads.length = 0;
  await create("team", "second");
  expect(reads.filter((key) => key.startsWith("/core/namespaces/"))).toEqual([]);
});

test("a namespace created, marked for deletion or deleted is seen as such by the next create (the follower learns of each commit)", async () => {
  expect(await failure(create("later", "a"))).toMatchObject({ code: 404, message: 'namespaces "later" not found' });
  await registry.store(namespaces).create("", { metadata: { name: "later" } });
  await create("later", "a");
  await registry.store(namespaces).delete("", "later");
  expect(await failure(create("later", "b"))).toMatchObject({
    code: 403,
    message: 'configmaps "b" is forbidden: unable to create new content in namespace later because it is being terminated',
  });
  await registry.store(namespaces).update("", "later", (ns) => ({ ...ns!, spec: { finalizers: [] } }), { subresource: "finalize" });
  expect(await failure(create("later", "c"))).toMatchObject({ code: 404, message: 'namespaces "later" not found' });
});

test("checkNamespaceOpen() of a namespace the followed copy shows open answers at once; a missing one is a rejected promise", async () => {
  await registry.store(namespaces).create("", { metadata: { name: "team" } });
  await create("team", "first");
  expect(registry.checkNamespaceOpen("team", configmaps, "second")).toBeUndefined();
  expect(await failure(registry.checkNamespaceOpen("gone", configmaps, "x") as Promise<void>)).toMatchObject({ code: 404 });
});
