import { expect, test } from "bun:test";
import { eventPrinter } from "./events.ts";
import { ago, columnNames, NOW, object } from "./_test-fixtures.ts";

test("event columns are LAST SEEN TYPE REASON OBJECT MESSAGE with the rest wide", () => {
  expect(columnNames(eventPrinter.columns)).toEqual([
    "Last Seen",
    "Type",
    "Reason",
    "Object",
    "Subobject*",
    "Source*",
    "Message",
    "First Seen*",
    "Count*",
    "Name*",
  ]);
  expect(eventPrinter.columns.at(-1)?.format).toBe("name");
});

test("a core/v1 event prints its object, source and count", () => {
  const event = object("web-0.17a", {
    involvedObject: { kind: "Pod", name: "web-0", fieldPath: "spec.containers{app}" },
    reason: "BackOff",
    message: " Back-off restarting failed container \n",
    type: "Warning",
    source: { component: "kubelet", host: "node-1" },
    firstTimestamp: ago(600),
    lastTimestamp: ago(30),
    count: 12,
  });
  expect(eventPrinter.cells(event, NOW)).toEqual([
    "30s",
    "Warning",
    "BackOff",
    "pod/web-0",
    "spec.containers{app}",
    "kubelet, node-1",
    "Back-off restarting failed container",
    "10m",
    12,
    "web-0.17a",
  ]);
});

test("an events.k8s.io event uses eventTime, series and the reporting controller", () => {
  const event = object("web.18b", {
    regarding: { kind: "Deployment", name: "web" },
    note: "Scaled up replica set web-5d4f to 3",
    reason: "ScalingReplicaSet",
    type: "Normal",
    eventTime: "2024-05-01T11:50:00.000000Z",
    reportingController: "deployment-controller",
    series: { count: 4, lastObservedTime: "2024-05-01T11:59:00.000000Z" },
  });
  expect(eventPrinter.cells(event, NOW)).toEqual([
    "60s",
    "Normal",
    "ScalingReplicaSet",
    "deployment/web",
    "",
    "deployment-controller",
    "Scaled up replica set web-5d4f to 3",
    "10m",
    4,
    "web.18b",
  ]);
});

test("a singleton event without timestamps counts once and shows <unknown> ages", () => {
  const cells = eventPrinter.cells(object("e", { involvedObject: { kind: "Node" }, reportingInstance: "cp-1" }), NOW);
  expect(cells).toEqual(["<unknown>", "", "", "node", "", ", cp-1", "", "<unknown>", 1, "e"]);
});
