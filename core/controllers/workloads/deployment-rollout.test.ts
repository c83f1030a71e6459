import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { fenceposts, rollingNewReplicas, rollingOldReplicas } from "./deployment-rollout.ts";

const deployment = (replicas: number, rollingUpdate: object = {}): KubeObject => ({
  metadata: {},
  spec: { replicas, strategy: { type: "RollingUpdate", rollingUpdate } },
});
const rs = (name: string, replicas: number, available: number, created = "2024-01-01T00:00:00Z"): KubeObject => ({
  metadata: { name, creationTimestamp: created },
  spec: { replicas },
  status: { replicas, availableReplicas: available },
});

test("fenceposts() rounds maxSurge up and maxUnavailable down, and never leaves both zero", () => {
  expect(fenceposts(deployment(3))).toEqual({ maxSurge: 1, maxUnavailable: 0 });
  expect(fenceposts(deployment(3, { maxSurge: 0, maxUnavailable: "10%" }))).toEqual({ maxSurge: 0, maxUnavailable: 1 });
});

test("rollingNewReplicas() grows the new ReplicaSet only within replicas + maxSurge", () => {
  const d = deployment(3);
  const old = rs("old", 3, 3);
  expect(rollingNewReplicas(d, rs("new", 0, 0), [old, rs("new", 0, 0)])).toBe(1);
  expect(rollingNewReplicas(d, rs("new", 1, 0), [old, rs("new", 1, 0)])).toBe(1);
});

test("rollingOldReplicas() scales old pods down only as far as availability allows", () => {
  const d = deployment(3);
  const old = rs("old", 3, 3);
  expect(rollingOldReplicas(d, rs("new", 1, 0), [old]).get(old)).toBe(3);
  expect(rollingOldReplicas(d, rs("new", 1, 1), [old]).get(old)).toBe(2);
});
