import { expect, test } from "bun:test";
import type { KubeObject } from "../api/types.ts";
import { type EndpointGroup, endpointGroups, portsKey, type SliceEndpoint } from "./endpointslice-endpoints.ts";
import { planSlices } from "./endpointslice-plan.ts";
import { testPod, testService } from "./_service-fixtures.ts";

const HTTP = [{ name: "http", port: 8080, protocol: "TCP" }];

function endpoint(n: number): SliceEndpoint {
  return {
    addresses: [`10.1.0.${n}`],
    conditions: { ready: true, serving: true, terminating: false },
    targetRef: { kind: "Pod", namespace: "default", name: `p${n}`, uid: `uid-${n}` },
  };
}

function groupOf(numbers: number[], ports = HTTP): Map<string, EndpointGroup> {
  return new Map([[portsKey(ports), { ports, endpoints: numbers.map(endpoint) }]]);
}

function slice(name: string, numbers: number[], ports: unknown[] = HTTP): KubeObject {
  return { metadata: { name, namespace: "default" }, addressType: "IPv4", endpoints: numbers.map(endpoint), ports };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const current = { metadataCurrent: () => true };

test("planSlices() spreads new endpoints over new slices of at most maxPerSlice", () => {
  const plan = planSlices(groupOf(range(1, 5)), [], { ...current, maxPerSlice: 2 });
  expect(plan.write.map((c) => c.endpoints.map((e) => e.targetRef.name))).toEqual([["p1", "p2"], ["p3", "p4"], ["p5"]]);
  expect(plan.delete).toEqual([]);
});

test("planSlices() leaves endpoints where they are and fills existing slices before making new ones", () => {
  const a = slice("a", [1, 2]);
  const b = slice("b", [3]);
  const plan = planSlices(groupOf([1, 2, 3, 4, 5]), [a, b], { ...current, maxPerSlice: 2 });
  expect(plan.write.map((c) => [c.existing?.metadata.name, c.endpoints.map((e) => e.targetRef.name)])).toEqual([[undefined, ["p5"]], ["b", [
    "p3",
    "p4",
  ]]]);
  expect(plan.delete).toEqual([]);
});

test("planSlices() writes nothing when the slices already hold the endpoints", () => {
  expect(planSlices(groupOf([1, 2]), [slice("a", [2, 1])], current)).toEqual({ write: [], delete: [] });
});

test("planSlices() rewrites a slice whose metadata is out of date", () => {
  const plan = planSlices(groupOf([1]), [slice("a", [1])], { metadataCurrent: () => false });
  expect(plan.write.map((c) => c.existing?.metadata.name)).toEqual(["a"]);
});

test("planSlices() deletes emptied slices, slices of old port sets and duplicates of an endpoint", () => {
  const plan = planSlices(groupOf([1]), [
    slice("a", [1]),
    slice("b", [2]),
    slice("c", [1]),
    slice("old", [1], [{ name: "x", port: 1, protocol: "TCP" }]),
  ], current);
  expect(plan.write).toEqual([]);
  expect(plan.delete.map((s) => s.metadata.name).sort()).toEqual(["b", "c", "old"]);
});

test("planSlices() keeps one placeholder slice without endpoints or ports when nothing is selected", () => {
  const created = planSlices(new Map(), [], current);
  expect(created.write).toEqual([{ existing: undefined, ports: [], endpoints: [] }]);
  const reused = planSlices(new Map(), [slice("a", [1]), slice("b", [2])], current);
  expect(reused.write).toEqual([{ existing: slice("a", [1]), ports: [], endpoints: [] }]);
  expect(reused.delete.map((s) => s.metadata.name)).toEqual(["b"]);
  expect(planSlices(new Map(), [slice("a", [], [])], current)).toEqual({ write: [], delete: [] });
});

test("endpointGroups() marks terminating Pods serving but not ready, and records node and zone", () => {
  const service = testService("web", { selector: { app: "web" }, ports: [{ name: "http", port: 80, targetPort: 8080 }] });
  const terminating = testPod("t", { ip: "10.1.0.7", node: "n1" });
  terminating.metadata.deletionTimestamp = "2024-01-01T00:00:00Z";
  const groups = endpointGroups(
    service,
    [terminating, testPod("r", { ip: "10.1.0.8", ready: false })],
    (node) => (node === "n1" ? "zone-a" : undefined),
  );
  expect([...groups.values()]).toEqual([{
    ports: [{ name: "http", port: 8080, protocol: "TCP" }],
    endpoints: [
      {
        addresses: ["10.1.0.7"],
        conditions: { ready: false, serving: true, terminating: true },
        targetRef: { kind: "Pod", namespace: "default", name: "t", uid: "uid-t" },
        nodeName: "n1",
        zone: "zone-a",
      },
      {
        addresses: ["10.1.0.8"],
        conditions: { ready: false, serving: false, terminating: false },
        targetRef: { kind: "Pod", namespace: "default", name: "r", uid: "uid-r" },
      },
    ],
  }]);
});
