/** NodeRestriction with the Node authorizer through the whole request chain, in-process (core/server/testing.ts). */
import { afterAll, expect, test } from "bun:test";
import { startInProcess } from "../../core/server/testing.ts";

const server = await startInProcess(["--authorization-mode=Node,RBAC", "--enable-admission-plugins=NodeRestriction"]);
afterAll(() => server.stop());
const node1 = { name: "system:node:node1", groups: ["system:nodes", "system:authenticated"] };

test("admitPodCreate: node1's mirror pod mounting another's Secret is refused, so the Node authorizer never lets node1 read it", async () => {
  await server.json("POST", "/api/v1/namespaces/default/secrets", { body: { metadata: { name: "n2sec" }, stringData: { k: "v" } } });
  const node = await server.json("POST", "/api/v1/nodes", { body: { metadata: { name: "node1" } } });
  expect(node.status).toBe(201);
  const mirror = {
    metadata: {
      name: "static-web",
      annotations: { "kubernetes.io/config.mirror": "hash" },
      ownerReferences: [{ apiVersion: "v1", kind: "Node", name: "node1", uid: node.body.metadata.uid, controller: true }],
    },
    spec: {
      nodeName: "node1",
      containers: [{ name: "web", image: "nginx" }],
      volumes: [{ name: "s", secret: { secretName: "n2sec" } }],
    },
  };
  const refused = await server.json("POST", "/api/v1/namespaces/default/pods", { body: mirror, user: node1 });
  expect(refused.status).toBe(403);
  expect(refused.body.message).toBe('pods "static-web" is forbidden: node "node1" can not create pods that reference secrets');
  const read = await server.json("GET", "/api/v1/namespaces/default/secrets/n2sec", { user: node1 });
  expect(read.status).toBe(403);
});

test("admitNode: a node may not set node-restriction.kubernetes.io/ labels on its own Node", async () => {
  const patch = await server.json("PATCH", "/api/v1/nodes/node1", {
    body: JSON.stringify({ metadata: { labels: { "node-restriction.kubernetes.io/pool": "a" } } }),
    headers: { "Content-Type": "application/merge-patch+json" },
    user: node1,
  });
  expect(patch.status).toBe(403);
  expect(patch.body.message).toContain("is not allowed to modify labels: node-restriction.kubernetes.io/pool");
});
