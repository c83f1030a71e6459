import { expect, test } from "bun:test";
import { copyStore, TargetNotEmptyError } from "./migrate.ts";
import { openSqliteStorage } from "./sqlite/mod.ts";

test("copyStore copies every key as read at the source's revision, while later writes stay behind", async () => {
  const source = openSqliteStorage(":memory:");
  const target = openSqliteStorage(":memory:");
  for (let i = 0; i < 25; i++) {
    await source.write({ op: "create", key: `/core/configmaps/default/c${String(i).padStart(2, "0")}`, value: `{"n":${i}}` });
  }
  await source.write({ op: "create", key: "/apps/deployments/default/web", value: '{"generation":3}' });
  await source.write({ op: "delete", key: "/core/configmaps/default/c00", expectedRevision: 0 });
  const revision = source.currentRevision();
  // Writes landing between the copy's pages are not part of the copy.
  let progress = 0;
  const copied = copyStore(source, target, {
    pageSize: 4,
    concurrency: 3,
    onProgress: (n) => (progress = n),
  });
  await source.write({ op: "update", key: "/apps/deployments/default/web", value: '{"generation":4}', expectedRevision: 0 });
  await source.write({ op: "create", key: "/core/configmaps/default/late", value: "{}" });
  expect(await copied).toEqual({ revision, keys: 25 });
  expect(progress).toBe(25);
  const all = await target.range("/");
  expect(all.items.map((kv) => kv.key)).toEqual((await source.range("/", { revision })).items.map((kv) => kv.key));
  expect((await target.get("/apps/deployments/default/web"))?.value).toBe('{"generation":3}');
  expect(await target.get("/core/configmaps/default/late")).toBeNull();
  await Promise.all([source.close(), target.close()]);
});

test("copyStore refuses a target that holds keys and writes nothing to it", async () => {
  const source = openSqliteStorage(":memory:");
  const target = openSqliteStorage(":memory:");
  await source.write({ op: "create", key: "/core/configmaps/default/a", value: "{}" });
  await target.write({ op: "create", key: "/core/configmaps/default/b", value: "{}" });
  const before = target.currentRevision();
  expect(copyStore(source, target)).rejects.toThrow(TargetNotEmptyError);
  await Bun.sleep(0);
  expect(target.currentRevision()).toBe(before);
  expect(await target.get("/core/configmaps/default/a")).toBeNull();
  await Promise.all([source.close(), target.close()]);
});
