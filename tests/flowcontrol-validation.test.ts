/**
 * FlowSchemas and PriorityLevelConfigurations are checked as kube 1.26's pkg/apis/flowcontrol/validation checks them
 * (ValidateFlowSchema, ValidatePriorityLevelConfiguration, the status updates): the compiled server refuses a bad
 * object with a 422 Invalid carrying kube's messages and field paths, and stores nothing.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server?.stop();
});

const FLOWCONTROL = "/apis/flowcontrol.apiserver.k8s.io";
const json = { "content-type": "application/json" };

const BAD_FLOW_SCHEMA = `apiVersion: flowcontrol.apiserver.k8s.io/v1beta3
kind: FlowSchema
metadata:
  name: bad-schema
spec:
  matchingPrecedence: 1
  priorityLevelConfiguration:
    name: global-default
  distinguisherMethod:
    type: ByGroup
  rules:
  - subjects:
    - kind: User
    resourceRules:
    - verbs: ["get", "fly"]
      apiGroups: ["*", "apps"]
      resources: ["pods"]
    nonResourceRules:
    - verbs: ["get"]
      nonResourceURLs: ["/health*"]
`;

test("kubectl apply of a bad FlowSchema is refused with ValidateFlowSchema's messages, and nothing is stored", async () => {
  const applied = await server.kubectl(["apply", "-f", "-"], { stdin: BAD_FLOW_SCHEMA });
  expect(applied.code).not.toBe(0);
  for (
    const line of [
      'The FlowSchema "bad-schema" is invalid:',
      "spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1",
      'spec.distinguisherMethod.type: Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:"ByGroup"}: supported values: "ByNamespace", "ByUser"',
      "spec.rules[0].subjects[0].user: Required value: user is required when subject kind is 'User'",
      'spec.rules[0].resourceRules[0].verbs: Unsupported value: []string{"get", "fly"}: supported values:',
      'spec.rules[0].resourceRules[0].apiGroups: Invalid value: []string{"*", "apps"}: if \'*\' is present, must not specify other api groups',
      "spec.rules[0].resourceRules[0].namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace",
      'spec.rules[0].nonResourceRules[0].nonResourceURLs[0]: Invalid value: "/health*": wildcard can only do suffix matching',
    ]
  ) expect(applied.stderr).toContain(line);
  const got = await server.kubectl(["get", "flowschemas.flowcontrol.apiserver.k8s.io", "bad-schema"]);
  expect(got.stderr).toContain('flowschemas.flowcontrol.apiserver.k8s.io "bad-schema" not found');
});

test("a bad v1beta2 PriorityLevelConfiguration is a 422 naming assuredConcurrencyShares, lendablePercent and the entropy limit (ValidateLimitedPriorityLevelConfiguration)", async () => {
  const body = {
    apiVersion: "flowcontrol.apiserver.k8s.io/v1beta2",
    kind: "PriorityLevelConfiguration",
    metadata: { name: "bad-level" },
    spec: {
      type: "Limited",
      limited: {
        assuredConcurrencyShares: -1,
        lendablePercent: 150,
        borrowingLimitPercent: -5,
        limitResponse: { type: "Queue", queuing: { queues: 128, handSize: 9, queueLengthLimit: 10 } },
      },
    },
  };
  const response = await server.request("POST", `${FLOWCONTROL}/v1beta2/prioritylevelconfigurations`, {
    body: JSON.stringify(body),
    headers: json,
  });
  expect(response.status).toBe(422);
  const status = await response.json();
  expect(status.reason).toBe("Invalid");
  expect(status.details).toMatchObject({ name: "bad-level", group: "flowcontrol.apiserver.k8s.io", kind: "PriorityLevelConfiguration" });
  expect(status.details.causes).toEqual([
    { reason: "FieldValueInvalid", message: "Invalid value: -1: must be positive", field: "spec.limited.assuredConcurrencyShares" },
    {
      reason: "FieldValueInvalid",
      message: "Invalid value: 9: required entropy bits of deckSize 128 and handSize 9 should not be greater than 60",
      field: "spec.limited.limitResponse.queuing.handSize",
    },
    {
      reason: "FieldValueInvalid",
      message: "Invalid value: 150: must be between 0 and 100, inclusive",
      field: "spec.limited.lendablePercent",
    },
    {
      reason: "FieldValueInvalid",
      message: "Invalid value: -5: if specified, must be a non-negative integer",
      field: "spec.limited.borrowingLimitPercent",
    },
  ]);
  expect((await server.request("GET", `${FLOWCONTROL}/v1beta2/prioritylevelconfigurations/bad-level`)).status).toBe(404);
});

test("v1beta3 names the shares nominalConcurrencyShares, and only 'exempt' may be of type Exempt (ValidatePriorityLevelConfigurationSpec)", async () => {
  const body = {
    apiVersion: "flowcontrol.apiserver.k8s.io/v1beta3",
    kind: "PriorityLevelConfiguration",
    metadata: { name: "zero-shares" },
    spec: { type: "Limited", limited: { nominalConcurrencyShares: -1, limitResponse: { type: "Reject" } } },
  };
  // Not 0: kube 1.26's SetDefaults_LimitedPriorityLevelConfiguration turns a 0 into 30.
  const response = await server.request("POST", `${FLOWCONTROL}/v1beta3/prioritylevelconfigurations`, {
    body: JSON.stringify(body),
    headers: json,
  });
  expect(response.status).toBe(422);
  expect((await response.json()).message).toBe(
    'PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "zero-shares" is invalid: spec.limited.nominalConcurrencyShares: Invalid value: -1: must be positive',
  );
  const exemptTyped = await server.request("POST", `${FLOWCONTROL}/v1beta3/prioritylevelconfigurations`, {
    body: JSON.stringify({ ...body, metadata: { name: "also-exempt" }, spec: { type: "Exempt" } }),
    headers: json,
  });
  expect(exemptTyped.status).toBe(422);
  expect((await exemptTyped.json()).message).toContain(
    "spec.type: Invalid value: \"Exempt\": type must be 'Exempt' if and only if name is 'exempt'",
  );
});

test("the mandatory catch-all level keeps its fixed spec even when its auto-update is off (ValidatePriorityLevelConfiguration)", async () => {
  const patched = await server.kubectl([
    "patch",
    "prioritylevelconfigurations.v1beta3.flowcontrol.apiserver.k8s.io",
    "catch-all",
    "--type=merge",
    "-p",
    '{"metadata":{"annotations":{"apf.kubernetes.io/autoupdate-spec":"false"}},"spec":{"limited":{"nominalConcurrencyShares":50}}}',
  ]);
  expect(patched.code).not.toBe(0);
  expect(patched.stderr).toContain("spec of 'catch-all' must equal the fixed value");
  const shares = await server.kubectl([
    "get",
    "prioritylevelconfigurations.v1beta3.flowcontrol.apiserver.k8s.io",
    "catch-all",
    "-o",
    "jsonpath={.spec.limited.nominalConcurrencyShares} {.metadata.annotations.apf\\.kubernetes\\.io/autoupdate-spec}",
  ]);
  expect(shares.stdout).toBe("5 true");
});

test("a status write with a repeated condition type is refused (ValidateFlowSchemaStatusUpdate)", async () => {
  const path = `${FLOWCONTROL}/v1beta3/flowschemas/global-default/status`;
  const current = await (await server.request("GET", path)).json();
  const condition = { type: "Dangling", status: "False", reason: "Found", message: "", lastTransitionTime: "2026-01-01T00:00:00Z" };
  const response = await server.request("PUT", path, {
    body: JSON.stringify({ ...current, status: { conditions: [condition, condition] } }),
    headers: json,
  });
  expect(response.status).toBe(422);
  expect((await response.json()).details.causes).toEqual([
    { reason: "FieldValueDuplicate", message: 'Duplicate value: "Dangling"', field: "status.conditions[1].type" },
  ]);
});
