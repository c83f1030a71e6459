import { expect, test } from "bun:test";
import { request } from "../../../core/auth/rbac/testing.ts";
import type { Attributes } from "../../../plugins/sdk.ts";
import { nodeAuthorizer } from "./authorizer.ts";
import { NodeGraph } from "./graph.ts";

const n1 = { username: "system:node:n1", groups: ["system:nodes", "system:authenticated"] };
const as = (overrides: Partial<Attributes>) => request({ user: n1, namespace: "ns", ...overrides });

function authorizer() {
  const graph = new NodeGraph();
  graph.setPod({
    metadata: { name: "mine", namespace: "ns" },
    spec: { nodeName: "n1", serviceAccountName: "sa", volumes: [{ name: "s", secret: { secretName: "mine-secret" } }] },
  });
  graph.setPod({
    metadata: { name: "theirs", namespace: "ns" },
    spec: { nodeName: "n2", volumes: [{ name: "s", secret: { secretName: "their-secret" } }] },
  });
  return nodeAuthorizer(graph, [{ verbs: ["create", "patch", "update"], apiGroups: [""], resources: ["events"] }]);
}

async function decide(overrides: Partial<Attributes>) {
  return await authorizer().authorize(as(overrides));
}

test("a node may get the Pods bound to it and their Secrets, but not another node's", async () => {
  expect(await decide({ resource: "pods", name: "mine" })).toEqual({ decision: "Allow" });
  expect(await decide({ resource: "secrets", name: "mine-secret" })).toEqual({ decision: "Allow" });
  expect(await decide({ resource: "pods", name: "theirs" })).toEqual({
    decision: "NoOpinion",
    reason: "no relationship found between node 'n1' and this object",
  });
  expect((await decide({ resource: "secrets", name: "their-secret" })).decision).toBe("NoOpinion");
  expect(await decide({ resource: "secrets", name: "mine-secret", verb: "update" })).toEqual({
    decision: "NoOpinion",
    reason: "can only read resources of this type",
  });
});

test("a node may list and watch all Pods and Nodes, in any namespace", async () => {
  expect(await decide({ resource: "pods", name: "", verb: "list" })).toEqual({ decision: "Allow" });
  expect(await decide({ resource: "pods", namespace: "", name: "", verb: "watch" })).toEqual({ decision: "Allow" });
  expect(await decide({ resource: "nodes", namespace: "", name: "", verb: "list" })).toEqual({ decision: "Allow" });
  expect(await decide({ resource: "nodes", namespace: "", name: "", verb: "watch" })).toEqual({ decision: "Allow" });
  expect((await decide({ resource: "pods", name: "theirs", verb: "update" })).decision).toBe("NoOpinion");
});

test("a node may read its own Node and update its own and its Pods' status", async () => {
  const node = { namespace: "", resource: "nodes" };
  expect((await decide({ ...node, name: "n1" })).decision).toBe("Allow");
  expect(await decide({ ...node, name: "n2" })).toEqual({
    decision: "NoOpinion",
    reason: "node 'n1' cannot read 'n2', only its own Node object",
  });
  expect((await decide({ ...node, name: "n1", subresource: "status", verb: "patch" })).decision).toBe("Allow");
  expect((await decide({ ...node, name: "n1", verb: "delete" })).decision).toBe("NoOpinion");
  expect((await decide({ resource: "pods", name: "mine", subresource: "status", verb: "update" })).decision).toBe("Allow");
});

test("a node may keep only its own Lease in kube-node-lease and create tokens only for its Pods' service accounts", async () => {
  const lease = { apiGroup: "coordination.k8s.io", resource: "leases", namespace: "kube-node-lease" };
  expect((await decide({ ...lease, name: "", verb: "create" })).decision).toBe("Allow");
  expect((await decide({ ...lease, name: "n1", verb: "update" })).decision).toBe("Allow");
  expect(await decide({ ...lease, name: "n2", verb: "update" })).toEqual({
    decision: "NoOpinion",
    reason: "can only access node lease with the same name as the requesting node",
  });
  expect(await decide({ ...lease, namespace: "default", name: "n1" })).toEqual({
    decision: "NoOpinion",
    reason: 'can only access leases in the "kube-node-lease" system namespace',
  });
  const token = { resource: "serviceaccounts", subresource: "token", verb: "create" };
  expect((await decide({ ...token, name: "sa" })).decision).toBe("Allow");
  expect((await decide({ ...token, name: "default" })).decision).toBe("NoOpinion");
});

test("other resources follow the static node rules, and non-nodes get no opinion at all", async () => {
  expect((await decide({ resource: "events", name: "", verb: "create" })).decision).toBe("Allow");
  expect((await decide({ resource: "services", name: "", verb: "list" })).decision).toBe("NoOpinion");
  expect(await authorizer().authorize(request({ resource: "pods", name: "mine", namespace: "ns" }))).toEqual({ decision: "NoOpinion" });
  expect(await authorizer().authorize(request({ user: { username: "system:node:", groups: ["system:nodes"] } }))).toEqual({
    decision: "NoOpinion",
    reason: 'unknown node for user "system:node:"',
  });
});

test("rulesFor() says a node's rules cannot be listed", async () => {
  expect(await authorizer().rulesFor!(n1, "ns")).toEqual({
    rules: [],
    incomplete: true,
    errors: ["node authorizer does not support user rule resolution"],
  });
  expect(await authorizer().rulesFor!({ username: "bob", groups: [] }, "ns")).toEqual({ rules: [], incomplete: false, errors: [] });
});
