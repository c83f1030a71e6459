import { expect, test } from "bun:test";
import { apiServicePrinter, flowSchemaPrinter, priorityLevelConfigurationPrinter, webhookConfigurationPrinter } from "./apiserver.ts";
import { columnNames, NOW, object } from "./_test-fixtures.ts";

test("webhook configurations count their webhooks", () => {
  expect(columnNames(webhookConfigurationPrinter.columns)).toEqual(["Name", "Webhooks", "Age"]);
  expect(webhookConfigurationPrinter.cells(object("policy", { webhooks: [{}, {}] }), NOW)).toEqual(["policy", 2, "5m"]);
});

test("flow schemas show priority level, precedence, distinguisher and the dangling condition", () => {
  expect(columnNames(flowSchemaPrinter.columns)).toEqual([
    "Name",
    "PriorityLevel",
    "MatchingPrecedence",
    "DistinguisherMethod",
    "Age",
    "MissingPL",
  ]);
  const schema = object("system-leader-election", {
    spec: { priorityLevelConfiguration: { name: "leader-election" }, matchingPrecedence: 100, distinguisherMethod: { type: "ByUser" } },
    status: { conditions: [{ type: "Dangling", status: "False" }] },
  });
  expect(flowSchemaPrinter.cells(schema, NOW)).toEqual(["system-leader-election", "leader-election", 100, "ByUser", "5m", "False"]);
  expect(
    flowSchemaPrinter.cells(object("exempt", { spec: { priorityLevelConfiguration: { name: "exempt" }, matchingPrecedence: 1 } }), NOW),
  ).toEqual([
    "exempt",
    "exempt",
    1,
    "<none>",
    "5m",
    "?",
  ]);
});

test("priority levels show shares and queuing, <none> where they do not apply", () => {
  expect(columnNames(priorityLevelConfigurationPrinter.columns)).toEqual([
    "Name",
    "Type",
    "NominalConcurrencyShares",
    "Queues",
    "HandSize",
    "QueueLengthLimit",
    "Age",
  ]);
  const limited = object("workload-low", {
    spec: {
      type: "Limited",
      limited: {
        nominalConcurrencyShares: 100,
        limitResponse: { type: "Queue", queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 } },
      },
    },
  });
  expect(priorityLevelConfigurationPrinter.cells(limited, NOW)).toEqual(["workload-low", "Limited", 100, 128, 6, 50, "5m"]);
  const rejecting = object("catch-all", {
    spec: { type: "Limited", limited: { assuredConcurrencyShares: 5, limitResponse: { type: "Reject" } } },
  });
  expect(priorityLevelConfigurationPrinter.cells(rejecting, NOW)).toEqual(["catch-all", "Limited", 5, "<none>", "<none>", "<none>", "5m"]);
  expect(priorityLevelConfigurationPrinter.cells(object("exempt", { spec: { type: "Exempt" } }), NOW)).toEqual([
    "exempt",
    "Exempt",
    "<none>",
    "<none>",
    "<none>",
    "<none>",
    "5m",
  ]);
});

const apiServiceCases: [string, Record<string, unknown>, unknown[]][] = [
  ["a local API service is available", { spec: {}, status: { conditions: [{ type: "Available", status: "True", reason: "Local" }] } }, [
    "Local",
    "True",
  ]],
  [
    "an unavailable aggregated API shows the reason",
    {
      spec: { service: { namespace: "kube-system", name: "metrics-server" } },
      status: { conditions: [{ type: "Available", status: "False", reason: "MissingEndpoints" }] },
    },
    ["kube-system/metrics-server", "False (MissingEndpoints)"],
  ],
  ["an API service without conditions is Unknown", { spec: {} }, ["Local", "Unknown"]],
];

for (const [behaviour, fields, expected] of apiServiceCases) {
  test(behaviour, () => {
    expect(columnNames(apiServicePrinter.columns)).toEqual(["Name", "Service", "Available", "Age"]);
    expect(apiServicePrinter.cells(object("v1beta1.metrics.k8s.io", fields), NOW)).toEqual(["v1beta1.metrics.k8s.io", ...expected, "5m"]);
  });
}

test("printFlowSchemaList orders rows by matching precedence, then name (apihelpers.FlowSchemaSequence)", () => {
  const schema = (name: string, matchingPrecedence: number) => object(name, { spec: { matchingPrecedence } });
  const listed = [schema("catch-all", 10000), schema("b", 800), schema("exempt", 1), schema("a", 800)];
  expect(listed.sort(flowSchemaPrinter.compareRows!).map((s) => s.metadata.name)).toEqual(["exempt", "a", "b", "catch-all"]);
  expect(priorityLevelConfigurationPrinter.compareRows).toBeUndefined();
});
