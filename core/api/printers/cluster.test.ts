import { expect, test } from "bun:test";
import {
  componentStatusPrinter,
  leasePrinter,
  namespacePrinter,
  nodePrinter,
  priorityClassPrinter,
  runtimeClassPrinter,
} from "./cluster.ts";
import { columnNames, NOW, object } from "./_test-fixtures.ts";

test("node columns match kube's", () => {
  expect(columnNames(nodePrinter.columns)).toEqual([
    "Name",
    "Status",
    "Roles",
    "Age",
    "Version",
    "Internal-IP*",
    "External-IP*",
    "OS-Image*",
    "Kernel-Version*",
    "Container-Runtime*",
  ]);
});

test("a ready control-plane node shows its roles, version and wide details", () => {
  const node = object("cp-1", {
    status: {
      conditions: [{ type: "MemoryPressure", status: "False" }, { type: "Ready", status: "True" }],
      addresses: [{ type: "Hostname", address: "cp-1" }, { type: "InternalIP", address: "192.168.1.10" }],
      nodeInfo: {
        kubeletVersion: "v1.26.3",
        osImage: "Ubuntu 22.04",
        kernelVersion: "5.15.0",
        containerRuntimeVersion: "containerd://1.6.20",
      },
    },
  }, { labels: { "node-role.kubernetes.io/control-plane": "", "node-role.kubernetes.io/": "x", "kubernetes.io/role": "master" } });
  expect(nodePrinter.cells(node, NOW)).toEqual([
    "cp-1",
    "Ready",
    "control-plane,master",
    "5m",
    "v1.26.3",
    "192.168.1.10",
    "<none>",
    "Ubuntu 22.04",
    "5.15.0",
    "containerd://1.6.20",
  ]);
});

const statusCases: [string, Record<string, unknown>, string][] = [
  ["NotReady when the Ready condition is not True", { status: { conditions: [{ type: "Ready", status: "False" }] } }, "NotReady"],
  ["Unknown without a Ready condition", {}, "Unknown"],
  ["SchedulingDisabled appended when cordoned", {
    spec: { unschedulable: true },
    status: { conditions: [{ type: "Ready", status: "True" }] },
  }, "Ready,SchedulingDisabled"],
];

for (const [behaviour, fields, expected] of statusCases) {
  test(`node status is ${behaviour}`, () => {
    const cells = nodePrinter.cells(object("n", fields), NOW);
    expect(cells[1]).toBe(expected);
    expect(cells.slice(2)).toEqual(["<none>", "5m", "", "<none>", "<none>", "<unknown>", "<unknown>", "<unknown>"]);
  });
}

test("namespaces, component statuses, leases, priority and runtime classes print kube's cells", () => {
  expect(columnNames(namespacePrinter.columns)).toEqual(["Name", "Status", "Age"]);
  expect(namespacePrinter.cells(object("default", { status: { phase: "Active" } }), NOW)).toEqual(["default", "Active", "5m"]);
  expect(columnNames(componentStatusPrinter.columns)).toEqual(["Name", "Status", "Message", "Error"]);
  expect(componentStatusPrinter.cells(object("etcd-0", { conditions: [{ type: "Healthy", status: "True", message: "ok" }] }), NOW)).toEqual(
    ["etcd-0", "Healthy", "ok", ""],
  );
  expect(componentStatusPrinter.cells(object("scheduler", { conditions: [{ type: "Healthy", status: "False", error: "refused" }] }), NOW))
    .toEqual(["scheduler", "Unhealthy", "", "refused"]);
  expect(componentStatusPrinter.cells(object("x"), NOW)).toEqual(["x", "Unknown", "", ""]);
  expect(leasePrinter.cells(object("kube-scheduler", { spec: { holderIdentity: "cp-1_abc" } }), NOW)).toEqual([
    "kube-scheduler",
    "cp-1_abc",
    "5m",
  ]);
  expect(columnNames(priorityClassPrinter.columns)).toEqual(["Name", "Value", "Global-Default", "Age"]);
  expect(priorityClassPrinter.cells(object("system-node-critical", { value: 2000001000 }), NOW)).toEqual([
    "system-node-critical",
    2000001000,
    false,
    "5m",
  ]);
  expect(runtimeClassPrinter.cells(object("gvisor", { handler: "runsc" }), NOW)).toEqual(["gvisor", "runsc", "5m"]);
});
