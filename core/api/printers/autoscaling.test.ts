import { expect, test } from "bun:test";
import { horizontalPodAutoscalerPrinter, podDisruptionBudgetPrinter, scalePrinter } from "./autoscaling.ts";
import { columnNames, NOW, object } from "./_test-fixtures.ts";

const hpa = (spec: object, status: object = {}) =>
  object("web", { spec: { scaleTargetRef: { kind: "Deployment", name: "web" }, maxReplicas: 10, ...spec }, status });

test("HPA columns match kube's", () => {
  expect(columnNames(horizontalPodAutoscalerPrinter.columns)).toEqual([
    "Name",
    "Reference",
    "Targets",
    "MinPods",
    "MaxPods",
    "Replicas",
    "Age",
  ]);
});

const cases: [string, ReturnType<typeof object>, string][] = [
  [
    "a utilization target shows current%/target%",
    hpa({ metrics: [{ type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 80 } } }] }, {
      currentMetrics: [{ type: "Resource", resource: { name: "cpu", current: { averageUtilization: 42 } } }],
    }),
    "42%/80%",
  ],
  [
    "unknown current values and more than two metrics are summarised",
    hpa({
      metrics: [
        { type: "Resource", resource: { name: "memory", target: { type: "AverageValue", averageValue: "500Mi" } } },
        { type: "Pods", pods: { target: { averageValue: "1k" } } },
        { type: "External", external: { target: { averageValue: "30" } } },
      ],
    }),
    "<unknown>/500Mi, <unknown>/1k + 1 more...",
  ],
  [
    "object metrics with an average value are marked (avg)",
    hpa({ metrics: [{ type: "Object", object: { target: { averageValue: "10" } } }] }, {
      currentMetrics: [{ type: "Object", object: { current: { averageValue: "7" } } }],
    }),
    "7/10 (avg)",
  ],
  [
    "an autoscaling/v1 CPU target prints like a utilization metric",
    hpa({ targetCPUUtilizationPercentage: 50 }, { currentCPUUtilizationPercentage: 12 }),
    "12%/50%",
  ],
  ["no metrics show <none>", hpa({}), "<none>"],
];

for (const [behaviour, obj, targets] of cases) {
  test(`HPA targets: ${behaviour}`, () => {
    expect(horizontalPodAutoscalerPrinter.cells(obj, NOW)[2]).toBe(targets);
  });
}

test("an HPA row shows reference, min, max and current replicas", () => {
  expect(horizontalPodAutoscalerPrinter.cells(hpa({ minReplicas: 2 }, { currentReplicas: 3 }), NOW)).toEqual([
    "web",
    "Deployment/web",
    "<none>",
    "2",
    10,
    3,
    "5m",
  ]);
  expect(horizontalPodAutoscalerPrinter.cells(hpa({}), NOW)[3]).toBe("<unset>");
});

test("pod disruption budgets show min available, max unavailable and allowed disruptions", () => {
  expect(columnNames(podDisruptionBudgetPrinter.columns)).toEqual([
    "Name",
    "Min Available",
    "Max Unavailable",
    "Allowed Disruptions",
    "Age",
  ]);
  expect(podDisruptionBudgetPrinter.cells(object("web", { spec: { minAvailable: 2 }, status: { disruptionsAllowed: 1 } }), NOW)).toEqual([
    "web",
    "2",
    "N/A",
    1,
    "5m",
  ]);
  expect(podDisruptionBudgetPrinter.cells(object("db", { spec: { maxUnavailable: "25%" } }), NOW)).toEqual(["db", "N/A", "25%", 0, "5m"]);
});

test("printScale: Name (without the name format), Desired, Available and the parent's age", () => {
  expect(columnNames(scalePrinter.columns)).toEqual(["Name", "Desired", "Available", "Age"]);
  expect(scalePrinter.columns.map((c) => [c.type, c.format])).toEqual([["string", ""], ["integer", ""], ["integer", ""], ["string", ""]]);
  expect(scalePrinter.cells(object("web", { spec: { replicas: 3 }, status: { replicas: 2 } }), NOW)).toEqual(["web", 3, 2, "5m"]);
  expect(scalePrinter.cells(object("idle", { spec: {}, status: { replicas: 0 } }), NOW)).toEqual(["idle", 0, 0, "5m"]);
});
