import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { evictionDue } from "./taint-eviction.ts";
import { evictionTainting } from "./zone-state.ts";

const added = "2026-01-01T00:00:00Z";
const t0 = Date.parse(added);
const unreachable = [{ key: "node.kubernetes.io/unreachable", effect: "NoExecute", timeAdded: added }, {
  key: "node.kubernetes.io/unreachable",
  effect: "NoSchedule",
}];
const pod = (tolerations: unknown[]): KubeObject => ({ metadata: { name: "p" }, spec: { tolerations } });

test("a pod that does not tolerate a NoExecute taint is due at once (NoExecuteTaintManager processPodOnNode)", () => {
  expect(evictionDue(pod([]), unreachable, t0 + 5)).toBe(t0 + 5);
  expect(evictionDue(pod([{ key: "other", operator: "Exists", effect: "NoExecute" }]), unreachable, t0 + 5)).toBe(t0 + 5);
});

test("a tolerating pod is due after the shortest tolerationSeconds from the taint's timeAdded (getMinTolerationTime)", () => {
  expect(
    evictionDue(
      pod([{ key: "node.kubernetes.io/unreachable", operator: "Exists", effect: "NoExecute", tolerationSeconds: 30 }]),
      unreachable,
      t0,
    ),
  ).toBe(t0 + 30_000);
  expect(evictionDue(pod([{ operator: "Exists", tolerationSeconds: -5 }]), unreachable, t0 + 1)).toBe(t0);
});

test("a pod tolerating without tolerationSeconds stays; so does every pod on a node without NoExecute taints", () => {
  expect(evictionDue(pod([{ key: "node.kubernetes.io/unreachable", operator: "Exists" }]), unreachable, t0)).toBeUndefined();
  expect(evictionDue(pod([]), [{ key: "x", effect: "NoSchedule" }], t0)).toBeUndefined();
});

const nodeWith = (name: string, ready: string, zone = ""): KubeObject => ({
  metadata: { name, labels: zone ? { "topology.kubernetes.io/zone": zone } : {} },
  status: { conditions: [{ type: "Ready", status: ready }] },
});

test("eviction tainting stops everywhere when every node is not ready (handleDisruption's master disruption mode)", () => {
  expect([...evictionTainting([nodeWith("a", "Unknown"), nodeWith("b", "False")]).values()]).toEqual(["clear", "clear"]);
});

test("eviction tainting holds in a small zone with more than 2 and at least 55% nodes not ready (ComputeZoneState)", () => {
  const zoneA = ["Unknown", "Unknown", "Unknown", "True"].map((s, i) => nodeWith(`a${i}`, s, "a"));
  const states = evictionTainting([...zoneA, nodeWith("b0", "Unknown", "b"), nodeWith("b1", "True", "b")]);
  expect(states.get("a0")).toBe("hold");
  expect(states.get("b0")).toBe("taint");
});
