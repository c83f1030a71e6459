import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { nodeShouldRunDaemonPod, withDaemonTolerations } from "./daemonset-nodes.ts";

const ds = (podSpec: Record<string, unknown> = {}): KubeObject => ({ metadata: { name: "agent" }, spec: { template: { spec: podSpec } } });
const node = (name: string, extra: { labels?: Record<string, string>; taints?: unknown[] } = {}): KubeObject => ({
  metadata: { name, labels: extra.labels ?? {} },
  spec: { taints: extra.taints ?? [] },
});

test("withDaemonTolerations() adds kube's daemon tolerations once, and network-unavailable for host-network pods", () => {
  const own = { key: "node.kubernetes.io/unreachable", operator: "Exists", effect: "NoExecute" };
  const tolerations = withDaemonTolerations({ tolerations: [own] });
  expect(tolerations.map((t) => `${t.key}:${t.effect}`)).toEqual([
    "node.kubernetes.io/unreachable:NoExecute",
    "node.kubernetes.io/not-ready:NoExecute",
    "node.kubernetes.io/disk-pressure:NoSchedule",
    "node.kubernetes.io/memory-pressure:NoSchedule",
    "node.kubernetes.io/pid-pressure:NoSchedule",
    "node.kubernetes.io/unschedulable:NoSchedule",
  ]);
  expect(withDaemonTolerations({ hostNetwork: true }).map((t) => t.key)).toContain("node.kubernetes.io/network-unavailable");
});

test("nodeShouldRunDaemonPod() follows the template's nodeSelector and nodeName", () => {
  expect(nodeShouldRunDaemonPod(ds({ nodeSelector: { role: "edge" } }), node("a", { labels: { role: "edge" } })).shouldRun).toBe(true);
  expect(nodeShouldRunDaemonPod(ds({ nodeSelector: { role: "edge" } }), node("b"))).toEqual({
    shouldRun: false,
    shouldContinueRunning: false,
  });
  expect(nodeShouldRunDaemonPod(ds({ nodeName: "a" }), node("b")).shouldRun).toBe(false);
});

test("nodeShouldRunDaemonPod() keeps a pod on a NoSchedule-tainted node but not on a NoExecute-tainted one", () => {
  const noSchedule = node("a", { taints: [{ key: "dedicated", value: "db", effect: "NoSchedule" }] });
  expect(nodeShouldRunDaemonPod(ds(), noSchedule)).toEqual({ shouldRun: false, shouldContinueRunning: true });
  const noExecute = node("a", { taints: [{ key: "dedicated", value: "db", effect: "NoExecute" }] });
  expect(nodeShouldRunDaemonPod(ds(), noExecute)).toEqual({ shouldRun: false, shouldContinueRunning: false });
  const tolerated = ds({ tolerations: [{ key: "dedicated", operator: "Equal", value: "db", effect: "NoExecute" }] });
  expect(nodeShouldRunDaemonPod(tolerated, noExecute)).toEqual({ shouldRun: true, shouldContinueRunning: true });
});

test("nodeShouldRunDaemonPod() runs on a cordoned node, since daemon pods tolerate the unschedulable taint", () => {
  const cordoned = node("a", { taints: [{ key: "node.kubernetes.io/unschedulable", effect: "NoSchedule" }] });
  expect(nodeShouldRunDaemonPod(ds(), cordoned).shouldRun).toBe(true);
});
