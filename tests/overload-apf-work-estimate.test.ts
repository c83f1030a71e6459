/**
 * API Priority and Fairness work estimation and queue wait against the compiled server: a priority level of 5 seats
 * (total concurrency 10, shares 245 of 490), a user classified to it, and ConfigMap creates held in a webhook to
 * keep seats taken. kube's WorkEstimator (list_work_estimator.go) sizes a LIST by the stored object count, and
 * BuildPriorityAndFairness lets a request queue for a quarter of --request-timeout.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { configMap, getJson, sendJson } from "./_api.ts";
import { createConfigMapAs, type HeldRequests, holdConfigMapCreates, until } from "./_held-requests.ts";

let server: TestServer;
let held: HeldRequests | undefined;
const holds: HeldRequests[] = [];

const FLOWCONTROL = "/apis/flowcontrol.apiserver.k8s.io/v1beta3";
const USER = "lister";
const STORED = 500;

beforeAll(async () => {
  server = await startServer(["--max-requests-inflight=5", "--max-mutating-requests-inflight=5", "--request-timeout=8s"]);
  const level = {
    apiVersion: "flowcontrol.apiserver.k8s.io/v1beta3",
    kind: "PriorityLevelConfiguration",
    metadata: { name: "five-seats" },
    spec: {
      type: "Limited",
      limited: {
        nominalConcurrencyShares: 245,
        limitResponse: { type: "Queue", queuing: { queues: 1, handSize: 1, queueLengthLimit: 5 } },
      },
    },
  };
  expect((await sendJson(server, "POST", `${FLOWCONTROL}/prioritylevelconfigurations`, level)).status).toBe(201);
  const schema = {
    apiVersion: "flowcontrol.apiserver.k8s.io/v1beta3",
    kind: "FlowSchema",
    metadata: { name: "listers" },
    spec: {
      priorityLevelConfiguration: { name: "five-seats" },
      matchingPrecedence: 500,
      rules: [{
        subjects: [{ kind: "User", user: { name: USER } }],
        resourceRules: [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"], namespaces: ["*"], clusterScope: true }],
      }],
    },
  };
  expect((await sendJson(server, "POST", `${FLOWCONTROL}/flowschemas`, schema)).status).toBe(201);
  await until(async () => (await metrics()).includes('apiserver_flowcontrol_request_concurrency_limit{priority_level="five-seats"} 5'));
  held = await holdConfigMapCreates(server, "apf-work");
  holds.push(held);
});

afterAll(async () => {
  for (const hold of holds) await hold.close();
  await server?.stop();
});

async function metrics(): Promise<string> {
  return await (await server.request("GET", "/metrics")).text();
}

function listAs(query: string): Promise<Response> {
  return server.request("GET", `/api/v1/configmaps${query}`, { headers: { "Impersonate-User": USER } });
}

/** The dump_requests rows of the level, as cells. */
async function waitingRows(): Promise<string[][]> {
  const dump = await (await server.request("GET", "/debug/api_priority_and_fairness/dump_requests")).text();
  return dump.split("\n").filter((line) => line.startsWith("five-seats,")).map((line) => line.split(/,\s*/));
}

test("apiserver_storage_objects counts the stored ConfigMaps (kube's object count tracker)", async () => {
  expect((await sendJson(server, "POST", "/api/v1/namespaces", { metadata: { name: "bulk" } })).status).toBe(201);
  const before = Number((await metrics()).match(/^apiserver_storage_objects\{resource="configmaps"\} (\d+)$/m)?.[1]);
  for (let start = 0; start < STORED; start += 50) {
    const batch = Array.from(
      { length: 50 },
      (_, i) => sendJson(server, "POST", "/api/v1/namespaces/bulk/configmaps", configMap("bulk", `cm-${start + i}`)),
    );
    for (const answer of await Promise.all(batch)) expect(answer.status).toBe(201);
  }
  const listed = (await getJson(server, "/api/v1/configmaps")).items.length;
  expect(listed).toBeGreaterThanOrEqual(before + STORED);
  expect((await metrics()).match(/^apiserver_storage_objects\{resource="configmaps"\} (\d+)$/m)?.[1]).toBe(String(listed));
  const sorted = (await metrics()).match(/^apiserver_storage_objects\{resource="deployments.apps"\} (\d+)$/m);
  expect(sorted?.[1]).toBe("0");
});

test("a LIST of over 500 stored objects takes 10 seats (listWorkEstimator) and waits while a 1-seat write holds one of 5", async () => {
  const write = createConfigMapAs(server, USER, "held-write", "apf-work");
  await until(() => held!.hook.calls.length === 1);
  const list = listAs("");
  await until(async () => (await waitingRows()).length === 1);
  const [row] = await waitingRows();
  // InitialSeats, FinalSeats, AdditionalLatency of kube's dump_requests.
  expect(row.slice(6, 9)).toEqual(["10", "0", "0s"]);
  const levels = await (await server.request("GET", "/debug/api_priority_and_fairness/dump_queues")).text();
  const queue = levels.split("\n").find((line) => line.startsWith("five-seats,"))?.split(/,\s*/);
  // PendingRequests 1; InitialSeatsSum and MaxSeatsSum 10.
  expect([queue?.[2], ...queue?.slice(6, 8) ?? []]).toEqual(["1", "10", "10"]);
  // NextDispatchR and TotalWorkSum (10 seats × kube's estimated 3 ms) in kube's SeatSeconds text.
  expect(queue?.[5]).toMatch(/^\d+\.\d{8}ss$/);
  expect(queue?.[8]).toBe("0.03000000ss");
  // The 10-seat head did not fit beside the write when it arrived (kube's AddDispatchWithNoAccommodation).
  expect(await metrics()).toMatch(
    /^apiserver_flowcontrol_request_dispatch_no_accommodation_total\{priority_level="five-seats",flow_schema="listers"\} [1-9]/m,
  );
  held!.release();
  expect((await write).status).toBe(201);
  const answer = await list;
  expect(answer.status).toBe(200);
  expect((await answer.json()).items.length).toBeGreaterThan(STORED);
});

test("limit and resourceVersion=0 shrink the estimate (shouldListFromStorage); apiserver_flowcontrol_work_estimated_seats records each", async () => {
  const seatsSum = (text: string) =>
    Number(text.match(/^apiserver_flowcontrol_work_estimated_seats_sum\{priority_level="five-seats",flow_schema="listers"\} (\d+)$/m)?.[1]);
  const before = await metrics();
  const stored = Number(before.match(/^apiserver_storage_objects\{resource="configmaps"\} (\d+)$/m)?.[1]);
  // limit=100 from storage: 2 × 100 objects = 2 seats; resourceVersion=0 from the cache: every stored object, one seat per 100.
  for (const query of ["?limit=100", "?resourceVersion=0"]) expect((await listAs(query)).status).toBe(200);
  const after = await metrics();
  expect(seatsSum(after) - seatsSum(before)).toBe(2 + Math.ceil(stored / 100));
  expect(after).toContain('apiserver_flowcontrol_work_estimated_seats_bucket{le="2",priority_level="five-seats",flow_schema="listers"}');
});

test("a queued request is rejected after a quarter of --request-timeout (8s → 2s), while the request ahead still runs", async () => {
  held = await holdConfigMapCreates(server, "apf-wait");
  holds.push(held);
  const first = createConfigMapAs(server, USER, "wide-holder", "apf-wait");
  let firstDone = false;
  void first.then(() => (firstDone = true));
  await until(() => held!.hook.calls.length === 1);
  // The 10-seat LIST cannot join the running write: it queues and times out there.
  const queued = await listAs("");
  expect(queued.status).toBe(429);
  expect(firstDone).toBe(false);
  expect(await metrics()).toContain(
    'apiserver_flowcontrol_rejected_requests_total{priority_level="five-seats",flow_schema="listers",reason="time-out"} 1',
  );
  // WithPriorityAndFairness records the 429 among the requests terminated in self-defense (RecordRequestTermination).
  expect(await metrics()).toContain(
    'apiserver_request_terminations_total{verb="LIST",group="",version="v1",resource="configmaps",subresource="",scope="cluster",component="apiserver",code="429"} 1',
  );
  held.release();
  expect((await first).status).toBe(201);
});

test("a write reached by 20 open watches takes 2 seats (mutatingWorkEstimator via kube's watchTracker), 1 once they close", async () => {
  const seatsSum = async () =>
    Number(
      (await metrics()).match(
        /^apiserver_flowcontrol_work_estimated_seats_sum\{priority_level="five-seats",flow_schema="listers"\} (\d+)$/m,
      )
        ?.[1],
    );
  const watches = await Promise.all(
    Array.from({ length: 20 }, () => server.request("GET", "/api/v1/namespaces/default/configmaps?watch=1")),
  );
  for (const watch of watches) expect(watch.status).toBe(200);
  const before = await seatsSum();
  expect((await createConfigMapAs(server, USER, "watched-write")).status).toBe(201);
  expect(await seatsSum()).toBe(before + 2);
  for (const watch of watches) await watch.body?.cancel();
  // The server forgets a watch once its stream has ended: then a write is back to one seat.
  let previous = await seatsSum();
  await until(async () => {
    const answer = await createConfigMapAs(server, USER, `after-${previous}`);
    expect(answer.status).toBe(201);
    const now = await seatsSum();
    const grew = now - previous;
    previous = now;
    return grew === 1;
  });
});

test("apiserver_flowcontrol_request_execution_seconds times regular requests and a watch's initial stage (ObserveExecutionDuration)", async () => {
  expect((await listAs("?limit=1")).status).toBe(200);
  const watch = await server.request("GET", "/api/v1/namespaces/default/configmaps?watch=1", { headers: { "Impersonate-User": USER } });
  expect(watch.status).toBe(200);
  await watch.body?.cancel();
  const text = await metrics();
  const count = (type: string) =>
    Number(
      text.match(
        new RegExp(
          `^apiserver_flowcontrol_request_execution_seconds_count\\{priority_level="five-seats",flow_schema="listers",type="${type}"\\} (\\d+)$`,
          "m",
        ),
      )?.[1] ?? 0,
    );
  expect(count("regular")).toBeGreaterThan(0);
  expect(count("watch")).toBe(1);
});
