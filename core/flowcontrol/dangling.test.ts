import { expect, test } from "bun:test";
import type { KubeObject } from "../api/types.ts";
import { testCluster } from "../controllers/runtime/testing.ts";
import { updateDanglingConditions } from "./dangling.ts";

const schema = (status?: unknown): KubeObject => ({
  apiVersion: "flowcontrol.apiserver.k8s.io/v1beta3",
  kind: "FlowSchema",
  metadata: { name: "example" },
  spec: { priorityLevelConfiguration: { name: "global-default" }, matchingPrecedence: 1000 },
  ...(status ? { status } : {}),
});

test("presyncFlowSchemaStatus: a Dangling condition already stored is not written again from an older copy of the schema (decided again on the stored object, as GuaranteedUpdate's tryUpdate)", async () => {
  const cluster = await testCluster();
  try {
    const type = cluster.catalog.byGroupVersionResource("flowcontrol.apiserver.k8s.io", "v1beta3", "flowschemas")!;
    const store = cluster.registry.bootstrapWriter().store(type);
    const created = await store.create("", schema());
    const found = {
      type: "Dangling",
      status: "False",
      reason: "Found",
      message: 'This FlowSchema references the PriorityLevelConfiguration object named "global-default" and it exists',
      lastTransitionTime: "2020-01-01T00:00:00Z",
    };
    const { object: set } = await store.update("", "example", (current) => ({ ...current!, status: { conditions: [found] } }), {
      subresource: "status",
    });
    // The copy a round works from may predate the stored condition (followed from etcd after a delay): no second write.
    await updateDanglingConditions([created], () => true, store);
    expect((await store.get("", "example")).metadata.resourceVersion).toBe(set.metadata.resourceVersion);
    // A changed answer is still written.
    await updateDanglingConditions([set], () => false, store);
    const dangling = await store.get("", "example");
    expect((dangling.status as { conditions: { reason: string }[] }).conditions[0]!.reason).toBe("NotFound");
  } finally {
    await cluster.close();
  }
});
