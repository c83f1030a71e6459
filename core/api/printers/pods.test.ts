import { expect, test } from "bun:test";
import { podPrinter } from "./pods.ts";
import { ago, columnNames, NOW, object } from "./_test-fixtures.ts";

const twoContainers = { containers: [{ name: "app" }, { name: "sidecar" }] };
const running = (restartCount = 0) => ({ ready: true, restartCount, state: { running: { startedAt: ago(200) } } });

function statusCells(spec: object, status: object, metadata = {}) {
  return podPrinter.cells(object("web-0", { spec, status }, metadata), NOW).slice(1, 4);
}

test("pod columns are kube's NAME READY STATUS RESTARTS AGE plus the wide columns", () => {
  expect(columnNames(podPrinter.columns)).toEqual([
    "Name",
    "Ready",
    "Status",
    "Restarts",
    "Age",
    "IP*",
    "Node*",
    "Nominated Node*",
    "Readiness Gates*",
  ]);
  expect(podPrinter.columns[0].format).toBe("name");
  expect(podPrinter.columns.map((c) => c.type).every((t) => t === "string")).toBe(true);
});

const statusCases: [string, object, object, object, unknown[]][] = [
  ["a pending pod shows its phase", twoContainers, { phase: "Pending" }, {}, ["0/2", "Pending", "0"]],
  ["a running pod counts ready containers", twoContainers, { phase: "Running", containerStatuses: [running(), running()] }, {}, [
    "2/2",
    "Running",
    "0",
  ]],
  [
    "a crash-looping container shows its waiting reason and the last restart's age",
    twoContainers,
    {
      phase: "Running",
      containerStatuses: [
        { restartCount: 4, state: { waiting: { reason: "CrashLoopBackOff" } }, lastState: { terminated: { finishedAt: ago(90) } } },
        running(1),
      ],
    },
    {},
    ["1/2", "CrashLoopBackOff", "5 (90s ago)"],
  ],
  [
    "an image pull failure shows ErrImagePull",
    { containers: [{ name: "app" }] },
    { phase: "Pending", containerStatuses: [{ state: { waiting: { reason: "ErrImagePull" } } }] },
    {},
    ["0/1", "ErrImagePull", "0"],
  ],
  [
    "a finished pod shows Completed",
    { containers: [{ name: "app" }] },
    { phase: "Succeeded", containerStatuses: [{ state: { terminated: { reason: "Completed", exitCode: 0 } } }] },
    {},
    ["0/1", "Completed", "0"],
  ],
  [
    "a terminated container without a reason shows its exit code or signal",
    twoContainers,
    {
      phase: "Failed",
      containerStatuses: [{ state: { terminated: { exitCode: 2 } } }, { state: { terminated: { exitCode: 137, signal: 9 } } }],
    },
    {},
    ["0/2", "ExitCode:2", "0"],
  ],
  [
    "Completed with a container still running reads Running when the pod is ready",
    twoContainers,
    {
      phase: "Running",
      conditions: [{ type: "Ready", status: "True" }],
      containerStatuses: [running(), { state: { terminated: { reason: "Completed", exitCode: 0 } } }],
    },
    {},
    ["1/2", "Running", "0"],
  ],
  [
    "Completed with a container still running reads NotReady when the pod is not ready",
    twoContainers,
    { phase: "Running", containerStatuses: [running(), { state: { terminated: { reason: "Completed", exitCode: 0 } } }] },
    {},
    ["1/2", "NotReady", "0"],
  ],
  [
    "a pod being deleted shows Terminating",
    { containers: [{ name: "app" }] },
    { phase: "Running", containerStatuses: [running()] },
    { deletionTimestamp: ago(3) },
    ["1/1", "Terminating", "0"],
  ],
  [
    "a pod being deleted on a lost node shows Unknown",
    { containers: [{ name: "app" }] },
    { phase: "Running", reason: "NodeLost" },
    { deletionTimestamp: ago(3) },
    ["0/1", "Unknown", "0"],
  ],
  [
    "the second of two init containers running shows Init:1/2",
    { initContainers: [{ name: "a" }, { name: "b" }], containers: [{ name: "app" }] },
    {
      phase: "Pending",
      initContainerStatuses: [
        { state: { terminated: { exitCode: 0, reason: "Completed" } } },
        { restartCount: 1, state: { running: {} }, lastState: { terminated: { finishedAt: ago(30) } } },
      ],
      containerStatuses: [{ restartCount: 7, state: { waiting: { reason: "PodInitializing" } } }],
    },
    {},
    ["0/1", "Init:1/2", "1 (30s ago)"],
  ],
  [
    "a crash-looping init container shows Init:CrashLoopBackOff",
    { initContainers: [{ name: "a" }], containers: [{ name: "app" }] },
    { phase: "Pending", initContainerStatuses: [{ restartCount: 3, state: { waiting: { reason: "CrashLoopBackOff" } } }] },
    {},
    ["0/1", "Init:CrashLoopBackOff", "3"],
  ],
  [
    "a failed init container shows Init:Error",
    { initContainers: [{ name: "a" }], containers: [{ name: "app" }] },
    { phase: "Failed", initContainerStatuses: [{ state: { terminated: { exitCode: 1, reason: "Error" } } }] },
    {},
    ["0/1", "Init:Error", "0"],
  ],
  [
    "a scheduling-gated pod shows SchedulingGated",
    { containers: [{ name: "app" }] },
    { phase: "Pending", conditions: [{ type: "PodScheduled", status: "False", reason: "SchedulingGated" }] },
    {},
    ["0/1", "SchedulingGated", "0"],
  ],
  ["the status reason overrides the phase", { containers: [{ name: "app" }] }, { phase: "Failed", reason: "Evicted" }, {}, [
    "0/1",
    "Evicted",
    "0",
  ]],
];

for (const [behaviour, spec, status, metadata, expected] of statusCases) {
  test(`printPod: ${behaviour}`, () => {
    expect(statusCells(spec, status, metadata)).toEqual(expected);
  });
}

test("pod wide cells show IP, node, nominated node and readiness gates, or <none>", () => {
  const pod = object("web-0", {
    spec: { containers: [{ name: "app" }], nodeName: "node-1", readinessGates: [{ conditionType: "lb/ready" }, { conditionType: "x/ok" }] },
    status: { phase: "Running", podIPs: [{ ip: "10.0.0.7" }], conditions: [{ type: "lb/ready", status: "True" }] },
  });
  expect(podPrinter.cells(pod, NOW)).toEqual(["web-0", "0/1", "Running", "0", "5m", "10.0.0.7", "node-1", "<none>", "1/2"]);
  expect(podPrinter.cells(object("bare"), NOW)).toEqual(["bare", "0/0", "", "0", "5m", "<none>", "<none>", "<none>", "<none>"]);
});

test("printPod marks a finished pod's row Completed (podSuccessConditions, podFailedConditions); others carry none", () => {
  const conditions = (phase: string) => podPrinter.conditions!(object("p", { status: { phase } }));
  expect(conditions("Succeeded")).toEqual([
    { type: "Completed", status: "True", reason: "Succeeded", message: "The pod has completed successfully." },
  ]);
  expect(conditions("Failed")).toEqual([{ type: "Completed", status: "True", reason: "Failed", message: "The pod failed." }]);
  expect(conditions("Running")).toBeUndefined();
  expect(conditions("Pending")).toBeUndefined();
});
