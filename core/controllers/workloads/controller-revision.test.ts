import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { testCluster } from "../runtime/testing.ts";
import { CONTROLLER_REVISIONS, controllerClient, STATEFUL_SETS } from "./client.ts";
import { newControllerRevision, oldestUnprotected, syncTemplateRevision, templateOfRevision } from "./controller-revision.ts";

const template = (image: string) => ({ metadata: { labels: { app: "db" } }, spec: { containers: [{ name: "c", image }] } });
const owner = (image: string): KubeObject => ({
  apiVersion: "apps/v1",
  kind: "StatefulSet",
  metadata: { name: "db", namespace: "default", uid: "uid-1", annotations: { note: "x" } },
  spec: { template: template(image) },
});
const withRevision = (cr: KubeObject, revision: number) => ({ ...cr, revision }) as KubeObject;

test("newControllerRevision() stores the template as a replace patch, labelled and owned like kube's", () => {
  const cr = newControllerRevision(owner("nginx"), { hash: "abc", revision: 4 }) as KubeObject & { data: unknown; revision: number };
  expect(cr.metadata).toMatchObject({
    name: "db-abc",
    labels: { app: "db", "controller-revision-hash": "abc" },
    annotations: { note: "x" },
    ownerReferences: [{ kind: "StatefulSet", name: "db", uid: "uid-1", controller: true, blockOwnerDeletion: true }],
  });
  expect(cr.data).toEqual({ spec: { template: { $patch: "replace", ...template("nginx") } } });
  expect(cr.revision).toBe(4);
  expect(templateOfRevision(cr)).toEqual(template("nginx"));
});

test("oldestUnprotected() picks the lowest revisions that are not live", () => {
  const crs = [3, 1, 2, 4].map((n) => withRevision(newControllerRevision(owner(`v${n}`), { hash: `h${n}`, revision: n }), n));
  const picked = oldestUnprotected(crs, 2, (cr) => cr.metadata.name === "db-h1");
  expect(picked.map((cr) => cr.metadata.name)).toEqual(["db-h2", "db-h3"]);
  expect(oldestUnprotected(crs, 0, () => false)).toEqual([]);
});

async function withClient(run: (client: ReturnType<typeof controllerClient>) => Promise<void>) {
  const cluster = await testCluster();
  try {
    await run(controllerClient(cluster.registry, cluster.catalog, { fieldManager: "test" }));
  } finally {
    await cluster.close();
  }
}

test("syncTemplateRevision() creates revision 1, then a newer one for a changed template", async () => {
  await withClient(async (client) => {
    const first = await syncTemplateRevision(client, STATEFUL_SETS, owner("nginx"), { owned: [], hash: "aaa" });
    expect(first?.update.metadata.name).toBe("db-aaa");
    expect((first?.update as { revision?: number }).revision).toBe(1);
    const second = await syncTemplateRevision(client, STATEFUL_SETS, owner("nginx:2"), { owned: first!.all, hash: "bbb" });
    expect(second?.all.map((cr) => `${cr.metadata.name}@${(cr as { revision?: number }).revision}`)).toEqual(["db-aaa@1", "db-bbb@2"]);
  });
});

test("syncTemplateRevision() renumbers an older equal revision instead of creating one (an undo)", async () => {
  await withClient(async (client) => {
    const first = await syncTemplateRevision(client, STATEFUL_SETS, owner("nginx"), { owned: [], hash: "aaa" });
    const second = await syncTemplateRevision(client, STATEFUL_SETS, owner("nginx:2"), { owned: first!.all, hash: "bbb" });
    const undone = await syncTemplateRevision(client, STATEFUL_SETS, owner("nginx"), { owned: second!.all, hash: "ignored" });
    expect(undone?.update.metadata.name).toBe("db-aaa");
    expect((undone?.update as { revision?: number }).revision).toBe(3);
    expect((await client.list(CONTROLLER_REVISIONS)).map((cr) => cr.metadata.name).sort()).toEqual(["db-aaa", "db-bbb"]);
  });
});

test("syncTemplateRevision() raises collisionCount when another revision holds the name", async () => {
  await withClient(async (client) => {
    const set = await client.create(STATEFUL_SETS, {
      ...owner("nginx"),
      metadata: { name: "db", namespace: "default" },
      spec: { serviceName: "db", selector: { matchLabels: { app: "db" } }, template: template("nginx") },
    });
    await client.create(CONTROLLER_REVISIONS, {
      ...newControllerRevision(owner("other"), { hash: "aaa", revision: 1 }),
      metadata: { name: "db-aaa", namespace: "default" },
    });
    expect(await syncTemplateRevision(client, STATEFUL_SETS, set!, { owned: [], hash: "aaa" })).toBeUndefined();
    const stored = await client.get(STATEFUL_SETS, "default", "db");
    expect((stored?.status as { collisionCount?: number }).collisionCount).toBe(1);
  });
});
