import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { testCluster } from "../runtime/testing.ts";
import { adoptOrphans } from "./adopt.ts";
import { controllerClient, PODS } from "./client.ts";

const owner: KubeObject = {
  apiVersion: "apps/v1",
  kind: "DaemonSet",
  metadata: { name: "agent", namespace: "default", uid: "u1" },
  spec: { selector: { matchLabels: { app: "agent" } } },
};
const pod = (name: string, labels: Record<string, string>, ownerReferences?: KubeObject["metadata"]["ownerReferences"]): KubeObject => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name, namespace: "default", labels, ownerReferences },
  spec: { containers: [{ name: "c", image: "x" }] },
});

test("adoptOrphans() takes selected pods without a controller and leaves the rest", async () => {
  const cluster = await testCluster();
  try {
    const client = controllerClient(cluster.registry, cluster.catalog, { fieldManager: "test" });
    const other = { apiVersion: "apps/v1", kind: "ReplicaSet", name: "rs", uid: "u2", controller: true };
    const pods = [
      await client.create(PODS, pod("orphan", { app: "agent" })),
      await client.create(PODS, pod("unselected", { app: "web" })),
      await client.create(PODS, pod("owned", { app: "agent" }, [other])),
      await client.create(PODS, pod("filtered", { app: "agent" })),
    ] as KubeObject[];
    const adopted = await adoptOrphans(client, PODS, owner, { objects: pods, also: (p) => p.metadata.name !== "filtered" });
    expect(adopted.map((p) => p.metadata.name)).toEqual(["orphan"]);
    expect((await client.get(PODS, "default", "orphan"))?.metadata.ownerReferences).toEqual([
      { apiVersion: "apps/v1", kind: "DaemonSet", name: "agent", uid: "u1", controller: true, blockOwnerDeletion: true },
    ]);
    const deleting = { ...owner, metadata: { ...owner.metadata, deletionTimestamp: "2024-01-01T00:00:00Z" } };
    expect(await adoptOrphans(client, PODS, deleting, { objects: [pods[3]] })).toEqual([]);
  } finally {
    await cluster.close();
  }
});
