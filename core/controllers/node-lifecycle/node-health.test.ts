import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { observeHealth, staleConditions } from "./node-health.ts";

const settings = { gracePeriodMs: 40_000, startupGracePeriodMs: 60_000 };
const created = "2026-01-01T00:00:00Z";
const t0 = Date.parse(created);

function node(conditions?: unknown[]): KubeObject {
  return { apiVersion: "v1", kind: "Node", metadata: { name: "n", creationTimestamp: created }, status: conditions ? { conditions } : {} };
}
const ready = (heartbeat: string) => ({
  type: "Ready",
  status: "True",
  lastHeartbeatTime: heartbeat,
  lastTransitionTime: created,
  reason: "KubeletReady",
  message: "ok",
});

test("a node whose kubelet never posted status gets NodeStatusNeverUpdated conditions after the startup grace period (tryUpdateNodeHealth)", () => {
  const health = observeHealth(undefined, node(), undefined, t0 + 1000);
  expect(health.probeTimestamp).toBe(t0);
  expect(staleConditions(node(), health, settings, t0 + 59_000, "later")).toBeUndefined();
  const conditions = staleConditions(node(), health, settings, t0 + 61_000, "2026-01-01T00:01:01Z")!;
  expect(conditions.map((c) => c.type)).toEqual(["Ready", "MemoryPressure", "DiskPressure", "PIDPressure"]);
  for (const c of conditions) {
    expect(c).toEqual({
      type: c.type,
      status: "Unknown",
      lastHeartbeatTime: created,
      lastTransitionTime: "2026-01-01T00:01:01Z",
      reason: "NodeStatusNeverUpdated",
      message: "Kubelet never posted node status.",
    });
  }
});

test("a Lease renewal keeps a node alive though its status heartbeat is old", () => {
  const n = node([ready(created)]);
  let health = observeHealth(undefined, n, "2026-01-01T00:00:00.000000Z", t0);
  health = observeHealth(health, n, "2026-01-01T00:00:30.000000Z", t0 + 30_000);
  expect(staleConditions(n, health, settings, t0 + 60_000, "x")).toBeUndefined();
  health = observeHealth(health, n, "2026-01-01T00:00:30.000000Z", t0 + 71_000);
  expect(staleConditions(n, health, settings, t0 + 71_000, "x")).toBeDefined();
});

test("a node that stops reporting turns its kubelet conditions Unknown, keeps their heartbeat and leaves NetworkUnavailable alone", () => {
  const network = { type: "NetworkUnavailable", status: "False", reason: "RouteCreated" };
  const n = node([ready(created), { ...ready(created), type: "MemoryPressure", status: "False" }, network]);
  const health = observeHealth(undefined, n, undefined, t0);
  const conditions = staleConditions(n, health, settings, t0 + 41_000, "now")!;
  const byType = Object.fromEntries(conditions.map((c) => [c.type, c]));
  expect(byType.Ready).toMatchObject({
    status: "Unknown",
    reason: "NodeStatusUnknown",
    message: "Kubelet stopped posting node status.",
    lastHeartbeatTime: created,
    lastTransitionTime: "now",
  });
  expect(byType.MemoryPressure).toMatchObject({ status: "Unknown", reason: "NodeStatusUnknown" });
  expect(byType.DiskPressure).toMatchObject({ status: "Unknown", reason: "NodeStatusNeverUpdated" });
  expect(byType.NetworkUnavailable).toEqual(network);
});

test("conditions already Unknown are not written again", () => {
  const n = node(
    ["Ready", "MemoryPressure", "DiskPressure", "PIDPressure"].map((type) => ({ type, status: "Unknown", lastHeartbeatTime: created })),
  );
  expect(staleConditions(n, observeHealth(undefined, n, undefined, t0), settings, t0 + 100_000, "now")).toBeUndefined();
});
