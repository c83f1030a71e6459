import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { controllerTaints } from "./node-taints.ts";

function node(
  ready: string | undefined,
  taints: unknown[] = [],
  extra: { unschedulable?: boolean; memoryPressure?: boolean } = {},
): KubeObject {
  const conditions = [
    ...(ready ? [{ type: "Ready", status: ready }] : []),
    ...(extra.memoryPressure ? [{ type: "MemoryPressure", status: "True" }] : []),
  ];
  return { metadata: { name: "n" }, spec: { taints, unschedulable: extra.unschedulable }, status: { conditions } };
}

test("an unreachable node gets the unreachable NoSchedule and NoExecute taints with timeAdded (doNoScheduleTaintingPass, SwapNodeControllerTaint)", () => {
  expect(controllerTaints(node("Unknown"), { noExecute: "taint", now: "T" })).toEqual([
    { key: "node.kubernetes.io/unreachable", effect: "NoSchedule", timeAdded: "T" },
    { key: "node.kubernetes.io/unreachable", effect: "NoExecute", timeAdded: "T" },
  ]);
});

test("a not-ready node swaps unreachable for not-ready; a Ready one loses both, keeping users' taints", () => {
  const unreachable = [{ key: "node.kubernetes.io/unreachable", effect: "NoSchedule" }, {
    key: "node.kubernetes.io/unreachable",
    effect: "NoExecute",
  }, { key: "team", value: "a", effect: "NoSchedule" }];
  expect(controllerTaints(node("False", unreachable), { noExecute: "taint", now: "T" })).toEqual([
    { key: "team", value: "a", effect: "NoSchedule" },
    { key: "node.kubernetes.io/not-ready", effect: "NoSchedule", timeAdded: "T" },
    { key: "node.kubernetes.io/not-ready", effect: "NoExecute", timeAdded: "T" },
  ]);
  expect(controllerTaints(node("True", unreachable), { noExecute: "taint", now: "T" })).toEqual([{
    key: "team",
    value: "a",
    effect: "NoSchedule",
  }]);
});

test("condition taints follow pressure conditions and spec.unschedulable; unchanged taints answer undefined", () => {
  const wanted = controllerTaints(node("True", [], { unschedulable: true, memoryPressure: true }), { noExecute: "taint", now: "T" });
  expect(wanted?.map((t) => t.key)).toEqual(["node.kubernetes.io/memory-pressure", "node.kubernetes.io/unschedulable"]);
  expect(controllerTaints(node("True", wanted, { unschedulable: true, memoryPressure: true }), { noExecute: "taint", now: "U" }))
    .toBeUndefined();
});

test("a node without conditions loses the not-ready NoSchedule taint it was registered with", () => {
  expect(
    controllerTaints(node(undefined, [{ key: "node.kubernetes.io/not-ready", effect: "NoSchedule" }]), { noExecute: "taint", now: "T" }),
  ).toEqual([]);
});

test("held eviction tainting adds no NoExecute taint and keeps existing ones; clearing removes them (handleDisruption)", () => {
  expect(controllerTaints(node("Unknown"), { noExecute: "hold", now: "T" })).toEqual([{
    key: "node.kubernetes.io/unreachable",
    effect: "NoSchedule",
    timeAdded: "T",
  }]);
  const tainted = node("Unknown", [{ key: "node.kubernetes.io/unreachable", effect: "NoSchedule" }, {
    key: "node.kubernetes.io/unreachable",
    effect: "NoExecute",
  }]);
  expect(controllerTaints(tainted, { noExecute: "hold", now: "T" })).toBeUndefined();
  expect(controllerTaints(tainted, { noExecute: "clear", now: "T" })).toEqual([{
    key: "node.kubernetes.io/unreachable",
    effect: "NoSchedule",
  }]);
});
