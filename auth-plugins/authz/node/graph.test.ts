import { expect, test } from "bun:test";
import type { KubeObject } from "../../../plugins/sdk.ts";
import { NodeGraph } from "./graph.ts";

const pod = (name: string, node: string, volumes: unknown[] = []): KubeObject => ({
  metadata: { name, namespace: "ns" },
  spec: { nodeName: node, volumes },
});
const claimVolume = { name: "v", persistentVolumeClaim: { claimName: "claim" } };
const volume = (claimRef?: { namespace: string; name: string }): KubeObject => ({
  metadata: { name: "pv" },
  spec: { claimRef, csi: { driver: "d", nodePublishSecretRef: { name: "pv-secret", namespace: "infra" } } },
});

test("a Pod bound to a node relates that node, and only it, to the Pod and its Secrets", () => {
  const graph = new NodeGraph();
  graph.setPod(pod("a", "n1", [{ name: "s", secret: { secretName: "token" } }]));
  expect(graph.relates("n1", "pod", "ns", "a")).toBe(true);
  expect(graph.relates("n1", "secret", "ns", "token")).toBe(true);
  expect(graph.relates("n2", "secret", "ns", "token")).toBe(false);
  expect(graph.relates("n1", "secret", "other", "token")).toBe(false);
});

test("a shared Secret stays related while any Pod on the node uses it, and moving or deleting Pods updates the graph", () => {
  const graph = new NodeGraph();
  const withSecret = (name: string, node: string) => pod(name, node, [{ name: "s", secret: { secretName: "shared" } }]);
  graph.setPod(withSecret("a", "n1"));
  graph.setPod(withSecret("b", "n1"));
  graph.deletePod("ns", "a");
  expect(graph.relates("n1", "secret", "ns", "shared")).toBe(true);
  graph.setPod(withSecret("b", "n2"));
  expect(graph.relates("n1", "secret", "ns", "shared")).toBe(false);
  expect(graph.relates("n2", "pod", "ns", "b")).toBe(true);
  graph.setPod(pod("b", ""));
  expect(graph.relates("n2", "pod", "ns", "b")).toBe(false);
});

test("a volume bound by claimRef to a Pod's claim relates the node to the volume and its secrets", () => {
  const graph = new NodeGraph();
  graph.setPod(pod("a", "n1", [claimVolume]));
  graph.setPersistentVolume(volume({ namespace: "ns", name: "claim" }));
  expect(graph.relates("n1", "persistentvolumeclaim", "ns", "claim")).toBe(true);
  expect(graph.relates("n1", "persistentvolume", "", "pv")).toBe(true);
  expect(graph.relates("n1", "secret", "infra", "pv-secret")).toBe(true);
  expect(graph.relates("n2", "persistentvolume", "", "pv")).toBe(false);
  graph.deletePersistentVolume("pv");
  expect(graph.relates("n1", "secret", "infra", "pv-secret")).toBe(false);
});

test("a claim naming a volume in spec.volumeName does not relate it: only the volume's claimRef does (kube's Graph.AddPV)", () => {
  const graph = new NodeGraph();
  graph.setPod(pod("a", "n1", [claimVolume]));
  graph.setPersistentVolume(volume());
  expect(graph.relates("n1", "persistentvolume", "", "pv")).toBe(false);
  expect(graph.relates("n1", "secret", "infra", "pv-secret")).toBe(false);
  graph.setPersistentVolume(volume({ namespace: "ns", name: "claim" }));
  expect(graph.relates("n1", "persistentvolume", "", "pv")).toBe(true);
});

test("a VolumeAttachment relates only the node named in its spec.nodeName (kube's Graph.AddVolumeAttachment)", () => {
  const graph = new NodeGraph();
  graph.setVolumeAttachment({ metadata: { name: "va" }, spec: { nodeName: "n1", attacher: "csi", source: {} } });
  expect(graph.relates("n1", "volumeattachment", "", "va")).toBe(true);
  expect(graph.relates("n2", "volumeattachment", "", "va")).toBe(false);
  graph.deleteVolumeAttachment("va");
  expect(graph.relates("n1", "volumeattachment", "", "va")).toBe(false);
});
