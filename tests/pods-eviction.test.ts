/**
 * pods/eviction and the disruption controller end to end: PodDisruptionBudget status kept as kube's
 * disruption controller (trySync) keeps it, EvictionREST.Create's 429 with its DisruptionBudget cause, dry runs,
 * v1beta1 Evictions, pods evicted freely when the budget does not apply (canIgnorePDB), and `kubectl drain`
 * blocked by a budget, then evicting and cordoning once the budget allows it.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";
import { expectStatus, getJson, sendJson } from "./_api.ts";
import { kubectlUntil, lines } from "./_workloads.ts";

let server: TestServer;
const NS = "/api/v1/namespaces/default";
const PDB = "/apis/policy/v1/namespaces/default/poddisruptionbudgets/web";

beforeAll(async () => {
  server = await startServer(["--simulated-nodes=2"]);
  await kubectlOk(server, ["create", "deployment", "web", "--image=nginx", "--replicas=3"]);
  await kubectlOk(server, ["rollout", "status", "deployment/web", "--timeout=30s"]);
  await kubectlOk(server, ["create", "poddisruptionbudget", "web", "--selector=app=web", "--min-available=3"]);
});
afterAll(async () => {
  await server?.stop();
});

const webPods = async () =>
  lines(await kubectlOk(server, ["get", "pods", "-l", "app=web", "-o", 'jsonpath={range .items[*]}{.metadata.name}{"\\n"}{end}']));
const evict = (pod: string, apiVersion = "policy/v1", query = "") =>
  sendJson(server, "POST", `${NS}/pods/${pod}/eviction${query}`, {
    apiVersion,
    kind: "Eviction",
    metadata: { name: pod, namespace: "default" },
  });
const pdbStatus = async () => (await getJson(server, PDB)).status;

test("the disruption controller reports minAvailable budgets: expected, desired and current healthy, no disruptions allowed", async () => {
  await kubectlUntil(
    server,
    ["get", "pdb", "web", "-o", "jsonpath={.status.observedGeneration}/{.status.currentHealthy}"],
    (out) => out === "1/3",
  );
  const status = await pdbStatus();
  expect(status).toMatchObject({ observedGeneration: 1, disruptionsAllowed: 0, currentHealthy: 3, desiredHealthy: 3, expectedPods: 3 });
  expect(status.conditions).toEqual([
    expect.objectContaining({ type: "DisruptionAllowed", status: "False", reason: "InsufficientPods", observedGeneration: 1 }),
  ]);
});

test("checkAndDecrement: an eviction the budget forbids is kube's 429 with the DisruptionBudget cause, and the pod stays", async () => {
  const [pod] = await webPods();
  const answer = await evict(pod!);
  expectStatus(answer, 429, "TooManyRequests", "Cannot evict pod as it would violate the pod's disruption budget.");
  expect(answer.body.details).toEqual({
    causes: [{ reason: "DisruptionBudget", message: "The disruption budget web needs 3 healthy pods and has 3 currently" }],
  });
  expect((await getJson(server, `${NS}/pods/${pod}`)).metadata.deletionTimestamp).toBeUndefined();
});

test("EvictionREST: a body naming another pod is 400; a missing pod is 404", async () => {
  const [pod] = await webPods();
  const mismatch = await sendJson(server, "POST", `${NS}/pods/${pod}/eviction`, {
    apiVersion: "policy/v1",
    kind: "Eviction",
    metadata: { name: "other" },
  });
  expectStatus(mismatch, 400, "BadRequest", "name in URL does not match name in Eviction object");
  expectStatus(await evict("ghost"), 404, "NotFound", 'pods "ghost" not found');
});

test("a maxUnavailable budget allows one eviction; a dry run changes nothing; a v1beta1 Eviction deletes the pod", async () => {
  await kubectlOk(server, [
    "patch",
    "pdb",
    "web",
    "--type=json",
    "-p",
    '[{"op":"remove","path":"/spec/minAvailable"},{"op":"add","path":"/spec/maxUnavailable","value":1}]',
  ]);
  await kubectlUntil(
    server,
    ["get", "pdb", "web", "-o", "jsonpath={.status.observedGeneration}/{.status.disruptionsAllowed}"],
    (out) => out === "2/1",
  );
  const [pod] = await webPods();
  expect((await evict(pod!, "policy/v1", "?dryRun=All")).status).toBe(201);
  expect((await getJson(server, `${NS}/pods/${pod}`)).metadata.deletionTimestamp).toBeUndefined();
  expect((await pdbStatus()).disruptionsAllowed).toBe(1);
  const answer = await evict(pod!, "policy/v1beta1");
  expect(answer.status).toBe(201);
  expect(answer.body).toMatchObject({ kind: "Status", status: "Success" });
  await kubectlUntil(server, ["get", "pods", "-l", "app=web", "-o", "name"], (out) => !out.includes(pod!));
  await kubectlOk(server, ["rollout", "status", "deployment/web", "--timeout=30s"]);
  await kubectlUntil(
    server,
    ["get", "pdb", "web", "-o", "jsonpath={.status.currentHealthy}/{.status.disruptionsAllowed}"],
    (out) => out === "3/1",
  );
});

test("canIgnorePDB: a pending pod is evicted even when its budget allows no disruption", async () => {
  await kubectlOk(
    server,
    ["apply", "-f", "-"],
    `
apiVersion: v1
kind: Pod
metadata: {name: waiting, labels: {app: waiting}}
spec: {schedulerName: nobody, containers: [{name: app, image: app:1}]}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: waiting}
spec: {selector: {matchLabels: {app: waiting}}, minAvailable: 5}
`,
  );
  expect((await evict("waiting")).status).toBe(201);
  const gone = await sendJson(server, "GET", `${NS}/pods/waiting`);
  expect(gone.status === 404 || gone.body.metadata.deletionTimestamp !== undefined).toBe(true);
});

test("the Eviction's deleteOptions are the pod delete's: a wrong uid precondition is a 409 and the pod stays", async () => {
  await kubectlOk(
    server,
    ["apply", "-f", "-"],
    `
apiVersion: v1
kind: Pod
metadata: {name: guarded}
spec: {schedulerName: nobody, containers: [{name: app, image: app:1}]}
`,
  );
  const answer = await sendJson(server, "POST", `${NS}/pods/guarded/eviction`, {
    apiVersion: "policy/v1",
    kind: "Eviction",
    metadata: { name: "guarded" },
    deleteOptions: { preconditions: { uid: "not-this-one" } },
  });
  expectStatus(answer, 409, "Conflict");
  expect((await getJson(server, `${NS}/pods/guarded`)).metadata.deletionTimestamp).toBeUndefined();
});

test("kubectl drain is blocked while the budget forbids evictions, then evicts and cordons", async () => {
  await kubectlOk(server, ["patch", "pdb", "web", "--type=json", "-p", '[{"op":"replace","path":"/spec/maxUnavailable","value":0}]']);
  await kubectlUntil(
    server,
    ["get", "pdb", "web", "-o", "jsonpath={.status.observedGeneration}/{.status.disruptionsAllowed}"],
    (out) => out === "3/0",
  );
  const node = (await kubectlOk(server, ["get", "pods", "-l", "app=web", "-o", "jsonpath={.items[0].spec.nodeName}"])).trim();
  const blocked = await server.kubectl(["drain", node, "--ignore-daemonsets", "--timeout=3s"]);
  expect(blocked.code).not.toBe(0);
  expect(blocked.stderr).toContain("Cannot evict pod as it would violate the pod's disruption budget.");
  expect(await kubectlOk(server, ["get", "node", node, "-o", "jsonpath={.spec.unschedulable}"])).toBe("true");

  await kubectlOk(server, ["patch", "pdb", "web", "--type=json", "-p", '[{"op":"replace","path":"/spec/maxUnavailable","value":1}]']);
  await kubectlUntil(server, ["get", "pdb", "web", "-o", "jsonpath={.status.disruptionsAllowed}"], (out) => out === "1");
  // With two pods on the node the second eviction waits (429, retried by drain) until the first is replaced.
  const drained = await server.kubectl(["drain", node, "--ignore-daemonsets", "--timeout=60s"]);
  // On failure the diff shows kubectl's own account of it.
  expect({ code: drained.code, stderr: drained.stderr }).toMatchObject({ code: 0 });
  expect(drained.stdout).toContain(`node/${node} drained`);
  expect(await kubectlOk(server, ["get", "pods", "-l", "app=web", "--field-selector", `spec.nodeName=${node}`, "-o", "name"])).toBe("");
  await kubectlOk(server, ["rollout", "status", "deployment/web", "--timeout=30s"]);
});

test("EvictionREST: a pod under two budgets is kube's 500 Status, and nothing is evicted", async () => {
  await kubectlOk(server, ["create", "poddisruptionbudget", "web-extra", "--selector=app=web", "--max-unavailable=1"]);
  const [pod] = await webPods();
  const answer = await evict(pod!);
  expect(answer.status).toBe(500);
  expect(answer.body).toEqual({
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message: "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.",
    code: 500,
  });
  expect((await getJson(server, `${NS}/pods/${pod}`)).metadata.deletionTimestamp).toBeUndefined();
});
