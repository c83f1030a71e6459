import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { misfitReasons, unschedulableMessage } from "./fit.ts";

const node = (extra: { taints?: object[]; labels?: Record<string, string>; unschedulable?: boolean } = {}): KubeObject => ({
  metadata: { name: "n", labels: extra.labels ?? {} },
  spec: { taints: extra.taints, unschedulable: extra.unschedulable },
  status: { allocatable: { cpu: "2", memory: "1Gi", pods: "110" }, conditions: [{ type: "Ready", status: "True" }] },
});
const pod = (spec: object = {}): KubeObject => ({ metadata: { name: "p" }, spec: { containers: [{ name: "c" }], ...spec } });

test("misfitReasons() reports untolerated NoSchedule taints and accepts tolerated ones", () => {
  const tainted = node({ taints: [{ key: "dedicated", value: "gpu", effect: "NoSchedule" }] });
  expect(misfitReasons(pod(), tainted, [])).toEqual(["node(s) had untolerated taint {dedicated: gpu}"]);
  expect(misfitReasons(pod({ tolerations: [{ key: "dedicated", operator: "Exists" }] }), tainted, [])).toEqual([]);
});

test("misfitReasons() checks nodeSelector, unschedulable nodes and requested resources", () => {
  expect(misfitReasons(pod({ nodeSelector: { disk: "ssd" } }), node(), [])).toEqual(["node(s) didn't match Pod's node affinity/selector"]);
  expect(misfitReasons(pod(), node({ unschedulable: true }), [])).toEqual(["node(s) were unschedulable"]);
  const big = pod({ containers: [{ name: "c", resources: { requests: { cpu: "1500m" } } }] });
  expect(misfitReasons(big, node(), [big])).toEqual(["Insufficient cpu"]);
});

test("unschedulableMessage() counts reasons per node as kube's FitError does", () => {
  expect(unschedulableMessage([["node(s) were unschedulable"], ["Insufficient cpu"], ["Insufficient cpu"]])).toBe(
    "0/3 nodes are available: 1 node(s) were unschedulable, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod..",
  );
});
