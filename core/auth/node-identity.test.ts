import { expect, test } from "bun:test";
import { nodeIdentity } from "./node-identity.ts";

test("nodeIdentity() (kube's NodeIdentity) needs both the system:node: prefix and the system:nodes group", () => {
  expect(nodeIdentity({ username: "system:node:n1", groups: ["system:nodes"] })).toBe("n1");
  expect(nodeIdentity({ username: "system:node:", groups: ["system:nodes"] })).toBe("");
  expect(nodeIdentity({ username: "system:node:n1", groups: [] })).toBeUndefined();
  expect(nodeIdentity({ username: "kubelet", groups: ["system:nodes"] })).toBeUndefined();
});
