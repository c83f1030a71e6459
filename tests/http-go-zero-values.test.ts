/**
 * Built-in objects carry the zero-valued fields Go's encoding/json always writes (kube answers through the Go
 * structs of k8s.io/api): fields without omitempty ("", 0, false), struct-typed fields even with omitempty ({}),
 * and a zero metav1.Time / MicroTime as null (Time.MarshalJSON). See core/schema/go-zero-values.ts.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { getJson, type Json, sendJson } from "./_api.ts";
import { eventsV1Event } from "./_events.ts";
import { kubectlOk } from "./_kubectl.ts";
import { startServer, type TestServer } from "./harness.ts";

const NS = "default";
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.stop());

async function created(path: string, body: Json): Promise<Json> {
  const answer = await sendJson(server, "POST", path, body);
  expect({ path, status: answer.status }).toEqual({ path, status: 201 });
  return answer.body;
}

/** Only the fields a test looks at, so the server's own metadata stays out of the comparison. */
function pick(obj: Json, fields: string[]): Json {
  return Object.fromEntries(fields.map((field) => [field, obj[field]]));
}

const CORE_EVENT_ZEROS = {
  source: {},
  firstTimestamp: null,
  lastTimestamp: null,
  eventTime: null,
  reportingComponent: "",
  reportingInstance: "",
};

test('core/v1 Event (types.go Event): source {}, firstTimestamp/lastTimestamp/eventTime null, reportingComponent/reportingInstance ""; omitempty fields stay out', async () => {
  const body = { apiVersion: "v1", kind: "Event", metadata: { name: "bare" }, involvedObject: { kind: "Pod", name: "web" } };
  const answer = await created(`/api/v1/namespaces/${NS}/events`, body);
  const read = await getJson(server, `/api/v1/namespaces/${NS}/events/bare`);
  for (const event of [answer, read]) {
    expect(pick(event, Object.keys(CORE_EVENT_ZEROS))).toEqual(CORE_EVENT_ZEROS);
    for (const omitted of ["reason", "message", "count", "type", "series", "action", "related"]) expect(omitted in event).toBe(false);
  }
  expect(await kubectlOk(server, ["get", "events", "-o", "name"])).toContain("event/bare");
});

test("an events.k8s.io/v1 Event read through core/v1 carries core/v1's zero fields, and through events.k8s.io/v1 its own (deprecatedSource {}, deprecated timestamps null)", async () => {
  const answer = await created(`/apis/events.k8s.io/v1/namespaces/${NS}/events`, eventsV1Event("moved", NS, "note"));
  expect(pick(answer, ["deprecatedSource", "deprecatedFirstTimestamp", "deprecatedLastTimestamp"])).toEqual({
    deprecatedSource: {},
    deprecatedFirstTimestamp: null,
    deprecatedLastTimestamp: null,
  });
  expect("series" in answer || "deprecatedCount" in answer).toBe(false);
  const core = await getJson(server, `/api/v1/namespaces/${NS}/events/moved`);
  expect(pick(core, ["source", "firstTimestamp", "lastTimestamp"])).toEqual({ source: {}, firstTimestamp: null, lastTimestamp: null });
  expect(core.reportingComponent).toBe("example.com/ctl");
  const bare = await getJson(server, `/apis/events.k8s.io/v1/namespaces/${NS}/events/bare`);
  expect(pick(bare, ["eventTime", "regarding", "deprecatedSource", "deprecatedFirstTimestamp", "deprecatedLastTimestamp"])).toEqual({
    eventTime: null,
    regarding: { kind: "Pod", name: "web" },
    deprecatedSource: {},
    deprecatedFirstTimestamp: null,
    deprecatedLastTimestamp: null,
  });
});

const TEMPLATE = { metadata: { labels: { app: "z" } }, spec: { containers: [{ name: "c", image: "nginx" }] } };
const SELECTOR = { matchLabels: { app: "z" } };

test("the class: status and spec structs Go always writes, for objects created with minimal bodies", async () => {
  const table: [path: string, body: Json, field: string, expected: Json][] = [
    [`/api/v1/namespaces/${NS}/services`, { metadata: { name: "z" }, spec: { ports: [{ port: 80 }] } }, "status", { loadBalancer: {} }],
    [
      `/apis/apps/v1/namespaces/${NS}/deployments`,
      { metadata: { name: "z" }, spec: { selector: SELECTOR, template: TEMPLATE } },
      "status",
      {},
    ],
    [
      `/apis/apps/v1/namespaces/${NS}/replicasets`,
      { metadata: { name: "z" }, spec: { selector: SELECTOR, template: TEMPLATE } },
      "status",
      {
        replicas: 0,
      },
    ],
    [`/apis/apps/v1/namespaces/${NS}/daemonsets`, { metadata: { name: "z" }, spec: { selector: SELECTOR, template: TEMPLATE } }, "status", {
      currentNumberScheduled: 0,
      numberMisscheduled: 0,
      desiredNumberScheduled: 0,
      numberReady: 0,
    }],
    [
      `/apis/networking.k8s.io/v1/namespaces/${NS}/ingresses`,
      {
        metadata: { name: "z" },
        spec: { defaultBackend: { service: { name: "z", port: { number: 80 } } } },
      },
      "status",
      { loadBalancer: {} },
    ],
    [`/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets`, { metadata: { name: "z" }, spec: { minAvailable: 1 } }, "status", {
      disruptionsAllowed: 0,
      currentHealthy: 0,
      desiredHealthy: 0,
      expectedPods: 0,
    }],
    [`/apis/coordination.k8s.io/v1/namespaces/${NS}/leases`, { metadata: { name: "z" } }, "spec", {}],
    [
      `/api/v1/namespaces/${NS}/persistentvolumeclaims`,
      {
        metadata: { name: "z" },
        spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
      },
      "status",
      { phase: "Pending" },
    ],
  ];
  for (const [path, body, field, expected] of table) {
    const answer = await created(path, body);
    expect({ path, [field]: answer[field] }).toEqual({ path, [field]: expected });
  }
});

test("Node (types.go NodeStatus): daemonEndpoints.kubeletEndpoint.Port 0 and every NodeSystemInfo string, though empty", async () => {
  const node = await created("/api/v1/nodes", { metadata: { name: "zero-node" } });
  expect(node.status.daemonEndpoints).toEqual({ kubeletEndpoint: { Port: 0 } });
  expect(node.status.nodeInfo).toEqual({
    machineID: "",
    systemUUID: "",
    bootID: "",
    kernelVersion: "",
    osImage: "",
    containerRuntimeVersion: "",
    kubeletVersion: "",
    kubeProxyVersion: "",
    operatingSystem: "",
    architecture: "",
  });
});
