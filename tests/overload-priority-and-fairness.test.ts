/**
 * API Priority and Fairness against the compiled server (kube's WithPriorityAndFairness and APF config controller):
 * a server whose total concurrency is 2 (--max-requests-inflight=1 plus --max-mutating-requests-inflight=1), a
 * priority level with one seat and a one-request queue, and requests held in a webhook to fill it.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { getJson, type Json, sendJson } from "./_api.ts";
import { createConfigMapAs, type HeldRequests, holdConfigMapCreates, until } from "./_held-requests.ts";

let server: TestServer;
let held: HeldRequests | undefined;

const FLOWCONTROL = "/apis/flowcontrol.apiserver.k8s.io/v1beta2";
/** Named with its version: kubectl's discovery cache may remember an earlier server on the same port. */
const PRIORITY_LEVELS_V1BETA3 = "prioritylevelconfigurations.v1beta3.flowcontrol.apiserver.k8s.io";

beforeAll(async () => {
  server = await startServer(["--max-requests-inflight=1", "--max-mutating-requests-inflight=1"]);
});

afterAll(async () => {
  await held?.close();
  await server?.stop();
});

async function uidOf(kind: "flowschemas" | "prioritylevelconfigurations", name: string): Promise<string> {
  return (await getJson(server, `${FLOWCONTROL}/${kind}/${name}`)).metadata.uid;
}

test("kubectl lists kube's mandatory and suggested FlowSchemas and PriorityLevelConfigurations (bootstrap/default.go) in v1beta3", async () => {
  const schemas = await server.kubectl([
    "get",
    "flowschemas",
    "-o",
    "custom-columns=NAME:.metadata.name,PL:.spec.priorityLevelConfiguration.name,P:.spec.matchingPrecedence",
    "--no-headers",
  ]);
  expect(schemas.code).toBe(0);
  expect(schemas.stdout.trim().split("\n").map((line) => line.split(/\s+/).join(" "))).toEqual([
    "catch-all catch-all 10000",
    "exempt exempt 1",
    "global-default global-default 9900",
    "kube-controller-manager workload-high 800",
    "kube-scheduler workload-high 800",
    "kube-system-service-accounts workload-high 900",
    "probes exempt 2",
    "service-accounts workload-low 9000",
    "system-leader-election leader-election 100",
    "system-node-high node-high 400",
    "system-nodes system 500",
    "workload-leader-election leader-election 200",
  ]);
  const levels = await server.kubectl([
    "get",
    PRIORITY_LEVELS_V1BETA3,
    "-o",
    "custom-columns=NAME:.metadata.name,TYPE:.spec.type,SHARES:.spec.limited.nominalConcurrencyShares",
    "--no-headers",
  ]);
  expect(levels.stdout.trim().split("\n").map((line) => line.split(/\s+/).join(" "))).toEqual([
    "catch-all Limited 5",
    "exempt Exempt <none>",
    "global-default Limited 20",
    "leader-election Limited 10",
    "node-high Limited 40",
    "system Limited 30",
    "workload-high Limited 40",
    "workload-low Limited 100",
  ]);
});

test("responses name the FlowSchema and priority level by UID: exempt for system:masters, global-default for other users", async () => {
  const admin = await server.request("GET", "/api/v1/namespaces");
  expect(admin.headers.get("X-Kubernetes-PF-FlowSchema-UID")).toBe(await uidOf("flowschemas", "exempt"));
  expect(admin.headers.get("X-Kubernetes-PF-PriorityLevel-UID")).toBe(await uidOf("prioritylevelconfigurations", "exempt"));
  const alice = await server.request("GET", "/api/v1/namespaces", { headers: { "Impersonate-User": "alice" } });
  expect(alice.status).toBe(200);
  expect(alice.headers.get("X-Kubernetes-PF-FlowSchema-UID")).toBe(await uidOf("flowschemas", "global-default"));
  expect(alice.headers.get("X-Kubernetes-PF-PriorityLevel-UID")).toBe(await uidOf("prioritylevelconfigurations", "global-default"));
});

test("a watch carries the PF headers and a long-running non-watch request does not (WithPriorityAndFairness skips only the latter)", async () => {
  const exemptSchema = await uidOf("flowschemas", "exempt");
  const watch = await server.request("GET", "/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=1");
  expect(watch.status).toBe(200);
  expect(watch.headers.get("X-Kubernetes-PF-FlowSchema-UID")).toBe(exemptSchema);
  expect(watch.headers.get("X-Kubernetes-PF-PriorityLevel-UID")).toBe(await uidOf("prioritylevelconfigurations", "exempt"));
  await watch.text();
  // A pod's log is long-running (BasicLongRunningRequestCheck): served past APF, so its answer names no FlowSchema.
  const log = await server.request("GET", "/api/v1/namespaces/default/pods/no-such-pod/log");
  expect(log.status).toBe(404);
  expect(log.headers.get("X-Kubernetes-PF-FlowSchema-UID")).toBeNull();
  expect(log.headers.get("X-Kubernetes-PF-PriorityLevel-UID")).toBeNull();
});

test("a seat is given back once the response is written: one-seat global-default serves request after request", async () => {
  // ceil(2 × 20 / 245) = 1 seat; a seat never given back would leave the next request queued until it times out.
  for (let i = 0; i < 5; i++) {
    const response = await server.request("GET", "/api/v1/namespaces/default/configmaps", { headers: { "Impersonate-User": "alice" } });
    expect(response.status).toBe(200);
    await response.text();
  }
  const metrics = await (await server.request("GET", "/metrics")).text();
  expect(metrics).toContain('apiserver_flowcontrol_request_concurrency_limit{priority_level="global-default"} 1');
  expect(metrics).toContain(
    'apiserver_flowcontrol_current_executing_requests{priority_level="global-default",flow_schema="global-default"} 0',
  );
});

test("a full priority level queues, then rejects with 429 while system:masters and /healthz are still served", async () => {
  const level = {
    apiVersion: "flowcontrol.apiserver.k8s.io/v1beta2",
    kind: "PriorityLevelConfiguration",
    metadata: { name: "tiny" },
    spec: {
      type: "Limited",
      limited: { assuredConcurrencyShares: 1, limitResponse: { type: "Queue", queuing: { queues: 1, handSize: 1, queueLengthLimit: 1 } } },
    },
  };
  expect((await sendJson(server, "POST", `${FLOWCONTROL}/prioritylevelconfigurations`, level)).status).toBe(201);
  const schema = {
    apiVersion: "flowcontrol.apiserver.k8s.io/v1beta2",
    kind: "FlowSchema",
    metadata: { name: "flooders" },
    spec: {
      priorityLevelConfiguration: { name: "tiny" },
      matchingPrecedence: 500,
      distinguisherMethod: { type: "ByUser" },
      rules: [{
        subjects: [{ kind: "User", user: { name: "flooder" } }],
        resourceRules: [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"], namespaces: ["*"], clusterScope: true }],
      }],
    },
  };
  expect((await sendJson(server, "POST", `${FLOWCONTROL}/flowschemas`, schema)).status).toBe(201);
  held = await holdConfigMapCreates(server, "apf");
  const hook = held.hook;
  // ceil(2 × 1 / 246 shares) = 1 seat: the first request holds it in the webhook.
  await until(async () =>
    (await server.request("GET", "/metrics").then((r) => r.text())).includes('request_concurrency_limit{priority_level="tiny"} 1')
  );
  const first = createConfigMapAs(server, "flooder", "held-1", "apf");
  await until(() => hook.calls.length === 1);
  // The second waits in the only queue, as the debug dump shows.
  const second = createConfigMapAs(server, "flooder", "held-2", "apf");
  await until(async () =>
    (await (await server.request("GET", "/debug/api_priority_and_fairness/dump_requests")).text()).includes("flooders")
  );
  const queues = await (await server.request("GET", "/debug/api_priority_and_fairness/dump_priority_levels")).text();
  expect(queues.split("\n").find((line) => line.startsWith("tiny,"))?.split(/,\s*/)).toEqual(["tiny", "1", "false", "false", "1", "1"]);

  const rejected = await createConfigMapAs(server, "flooder", "rejected", "apf");
  expect(rejected.status).toBe(429);
  expect(rejected.headers.get("Retry-After")).toBe("1");
  expect(await rejected.text()).toBe("Too many requests, please try again later.\n");
  expect(rejected.headers.get("X-Kubernetes-PF-FlowSchema-UID")).toBe(await uidOf("flowschemas", "flooders"));
  expect(rejected.headers.get("X-Kubernetes-PF-PriorityLevel-UID")).toBe(await uidOf("prioritylevelconfigurations", "tiny"));

  expect((await sendJson(server, "POST", "/api/v1/namespaces/default/configmaps", { metadata: { name: "admin-write" }, data: {} })).status)
    .toBe(201);
  expect((await server.requestAnonymous("GET", "/healthz")).status).toBe(200);
  expect((await server.request("GET", "/readyz", { headers: { "Impersonate-User": "flooder" } })).status).toBe(200);

  const metrics = await (await server.request("GET", "/metrics")).text();
  expect(metrics).toContain(
    'apiserver_flowcontrol_rejected_requests_total{priority_level="tiny",flow_schema="flooders",reason="queue-full"} 1',
  );
  expect(metrics).toContain('apiserver_flowcontrol_current_inqueue_requests{priority_level="tiny",flow_schema="flooders"} 1');
  expect(metrics).toContain('apiserver_flowcontrol_current_executing_requests{priority_level="tiny",flow_schema="flooders"} 1');

  held.release();
  expect((await first).status).toBe(201);
  expect((await second).status).toBe(201);
  const after = await (await server.request("GET", "/metrics")).text();
  expect(after).toContain('apiserver_flowcontrol_dispatched_requests_total{priority_level="tiny",flow_schema="flooders"} 2');
  expect(after).toMatch(
    /apiserver_flowcontrol_request_wait_duration_seconds_count\{priority_level="tiny",flow_schema="flooders",execute="true"\} 1/,
  );
});

test("a FlowSchema naming a missing priority level gets kube's Dangling condition", async () => {
  const schema = {
    apiVersion: "flowcontrol.apiserver.k8s.io/v1beta2",
    kind: "FlowSchema",
    metadata: { name: "dangling" },
    spec: { priorityLevelConfiguration: { name: "nowhere" }, rules: [] },
  };
  expect((await sendJson(server, "POST", `${FLOWCONTROL}/flowschemas`, schema)).status).toBe(201);
  let condition: Json;
  await until(async () => {
    condition = (await getJson(server, `${FLOWCONTROL}/flowschemas/dangling`)).status?.conditions?.find((c: Json) => c.type === "Dangling");
    return condition !== undefined;
  });
  expect(condition).toMatchObject({
    status: "True",
    reason: "NotFound",
    message: 'This FlowSchema references the PriorityLevelConfiguration object named "nowhere" but there is no such object',
  });
});

test("the debug dumps answer in kube's comma-and-tab layout", async () => {
  const queues = await (await server.request("GET", "/debug/api_priority_and_fairness/dump_queues")).text();
  expect(queues.split("\n")[0].split(/,\s*/)).toEqual([
    "PriorityLevelName",
    "Index",
    "PendingRequests",
    "ExecutingRequests",
    "SeatsInUse",
    "NextDispatchR",
    "InitialSeatsSum",
    "MaxSeatsSum",
    "TotalWorkSum",
  ]);
  expect(queues).toMatch(/^exempt, +<none>/m);
  const requests = await (await server.request("GET", "/debug/api_priority_and_fairness/dump_requests?includeRequestDetails=1")).text();
  expect(requests.split("\n")[0]).toContain("AdditionalLatency, UserName,");
  expect((await server.request("GET", "/debug/api_priority_and_fairness/dump_nothing")).status).toBe(404);
});

test("an edited bootstrap object gets kube's spec back at the next start unless annotated autoupdate-spec false", async () => {
  const patch = (name: string, body: Json) =>
    server.kubectl(["patch", PRIORITY_LEVELS_V1BETA3, name, "--type=merge", "-p", JSON.stringify(body)]);
  // A suggested level: the mandatory ones refuse any other spec (ValidatePriorityLevelConfiguration, flowcontrol-validation.test.ts).
  expect((await patch("system", { spec: { limited: { nominalConcurrencyShares: 50 } } })).code).toBe(0);
  expect((await getJson(server, `${FLOWCONTROL}/prioritylevelconfigurations/system`)).spec.limited.assuredConcurrencyShares).toBe(50);
  expect(
    (await patch("workload-low", {
      metadata: { annotations: { "apf.kubernetes.io/autoupdate-spec": "false" } },
      spec: { limited: { nominalConcurrencyShares: 7 } },
    })).code,
  ).toBe(0);
  expect((await getJson(server, `${FLOWCONTROL}/prioritylevelconfigurations/workload-low`)).spec.limited.assuredConcurrencyShares).toBe(7);
  await held?.close();
  held = undefined;
  await server.terminate();
  server = await startServer(["--max-requests-inflight=1", "--max-mutating-requests-inflight=1"], { dataDir: server.dataDir });
  expect((await getJson(server, `${FLOWCONTROL}/prioritylevelconfigurations/system`)).spec.limited.assuredConcurrencyShares).toBe(30);
  expect((await getJson(server, `${FLOWCONTROL}/prioritylevelconfigurations/workload-low`)).spec.limited.assuredConcurrencyShares).toBe(7);
});
