import { expect, test } from "bun:test";
import {
  controllerRevisionPrinter,
  daemonSetPrinter,
  deploymentPrinter,
  podTemplatePrinter,
  replicaSetPrinter,
  replicationControllerPrinter,
  statefulSetPrinter,
} from "./workloads.ts";
import { columnNames, NOW, object } from "./_test-fixtures.ts";

const template = {
  metadata: { labels: { app: "web" } },
  spec: { containers: [{ name: "nginx", image: "nginx:1.25" }, { name: "log", image: "busybox" }] },
};
const selector = { matchLabels: { app: "web" } };

test("workload columns match kube's names, order and wide priorities", () => {
  expect(columnNames(deploymentPrinter.columns)).toEqual([
    "Name",
    "Ready",
    "Up-to-date",
    "Available",
    "Age",
    "Containers*",
    "Images*",
    "Selector*",
  ]);
  expect(columnNames(replicaSetPrinter.columns)).toEqual([
    "Name",
    "Desired",
    "Current",
    "Ready",
    "Age",
    "Containers*",
    "Images*",
    "Selector*",
  ]);
  expect(replicaSetPrinter.columns.slice(1, 4).map((c) => c.type)).toEqual(["integer", "integer", "integer"]);
  expect(columnNames(statefulSetPrinter.columns)).toEqual(["Name", "Ready", "Age", "Containers*", "Images*"]);
  expect(columnNames(daemonSetPrinter.columns)).toEqual([
    "Name",
    "Desired",
    "Current",
    "Ready",
    "Up-to-date",
    "Available",
    "Node Selector",
    "Age",
    "Containers*",
    "Images*",
    "Selector*",
  ]);
  expect(columnNames(podTemplatePrinter.columns)).toEqual(["Name", "Containers", "Images", "Pod Labels"]);
  expect(columnNames(controllerRevisionPrinter.columns)).toEqual(["Name", "Controller", "Revision", "Age"]);
});

const cases: [string, typeof deploymentPrinter, ReturnType<typeof object>, unknown[]][] = [
  [
    "a deployment shows ready/desired, up-to-date and available",
    deploymentPrinter,
    object("web", { spec: { replicas: 3, selector, template }, status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 } }),
    ["web", "2/3", 3, 2, "5m", "nginx,log", "nginx:1.25,busybox", "app=web"],
  ],
  [
    "a deployment without replicas or status counts kube's default of one replica",
    deploymentPrinter,
    object("web", { spec: { selector: {}, template } }),
    ["web", "0/1", 0, 0, "5m", "nginx,log", "nginx:1.25,busybox", ""],
  ],
  [
    "a replica set shows desired, current and ready counts",
    replicaSetPrinter,
    object("web-5d4f", { spec: { replicas: 2, selector, template }, status: { replicas: 2, readyReplicas: 1 } }),
    ["web-5d4f", 2, 2, 1, "5m", "nginx,log", "nginx:1.25,busybox", "app=web"],
  ],
  [
    "a replication controller prints its map selector",
    replicationControllerPrinter,
    object("rc", { spec: { replicas: 0, selector: { app: "web" }, template }, status: { replicas: 0 } }),
    ["rc", 0, 0, 0, "5m", "nginx,log", "nginx:1.25,busybox", "app=web"],
  ],
  [
    "a stateful set shows ready/desired",
    statefulSetPrinter,
    object("db", { spec: { replicas: 3, selector, template }, status: { readyReplicas: 3 } }),
    ["db", "3/3", "5m", "nginx,log", "nginx:1.25,busybox"],
  ],
  [
    "a daemon set shows its scheduling counts and node selector",
    daemonSetPrinter,
    object("agent", {
      spec: { selector, template: { spec: { ...template.spec, nodeSelector: { "kubernetes.io/os": "linux" } } } },
      status: { desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 2, updatedNumberScheduled: 3, numberAvailable: 2 },
    }),
    ["agent", 3, 3, 2, 3, 2, "kubernetes.io/os=linux", "5m", "nginx,log", "nginx:1.25,busybox", "app=web"],
  ],
  ["a pod template shows containers, images and pod labels", podTemplatePrinter, object("tpl", { template }), [
    "tpl",
    "nginx,log",
    "nginx:1.25,busybox",
    "app=web",
  ]],
  [
    "a controller revision names its controller as kind.group/name",
    controllerRevisionPrinter,
    object("web-7c9", { revision: 2 }, {
      ownerReferences: [{ apiVersion: "apps/v1", kind: "StatefulSet", name: "web", uid: "u", controller: true }],
    }),
    ["web-7c9", "statefulset.apps/web", 2, "5m"],
  ],
  ["a controller revision without a controller shows <none>", controllerRevisionPrinter, object("orphan", { revision: 1 }), [
    "orphan",
    "<none>",
    1,
    "5m",
  ]],
];

for (const [behaviour, printer, obj, expected] of cases) {
  test(behaviour, () => {
    expect(printer.cells(obj, NOW)).toEqual(expected);
  });
}
