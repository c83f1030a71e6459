/**
 * pods/log, exec, attach and portforward end to end: kube's answers before a node agent is involved (404, 400
 * validateContainer, 204 / 400 without a host, 422 ValidatePodLogOptions), logs served by simulated kubelets to
 * the real `kubectl logs` (--tail, --timestamps, -f, --limit-bytes, --previous), and kube's failed-dial error
 * for exec/attach on a node without a reachable agent.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";
import { expectStatus, sendJson } from "./_api.ts";
import { kubectlUntil } from "./_workloads.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startServer(["--simulated-nodes=1"]);
  await kubectlOk(
    server,
    ["apply", "-f", "-"],
    `
apiVersion: v1
kind: Pod
metadata:
  name: talker
  annotations:
    kubun.io/simulated-log: |
      first line
      second line
      third line
spec:
  containers:
  - name: app
    image: app:1
---
apiVersion: v1
kind: Pod
metadata:
  name: unbound
spec:
  schedulerName: nobody
  containers:
  - name: app
    image: app:1
  - name: sidecar
    image: sidecar:1
`,
  );
  await kubectlUntil(server, ["get", "pod", "talker", "-o", "jsonpath={.status.phase}"], (out) => out === "Running");
});
afterAll(async () => {
  await server?.stop();
});

const LOG = "/api/v1/namespaces/default/pods";

test("LogREST: a missing pod is 404 and an unknown container is kube's 400", async () => {
  expectStatus(await sendJson(server, "GET", `${LOG}/ghost/log`), 404, "NotFound", 'pods "ghost" not found');
  expectStatus(
    await sendJson(server, "GET", `${LOG}/talker/log?container=nope`),
    400,
    "BadRequest",
    "container nope is not valid for pod talker",
  );
});

test("LogREST: ValidatePodLogOptions answers 422 before the pod is looked up", async () => {
  expectStatus(
    await sendJson(server, "GET", `${LOG}/ghost/log?tailLines=-1`),
    422,
    "Invalid",
    'PodLogOptions "ghost" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0',
  );
});

test("LogLocation: a pod without a node answers 204 No Content; without a container name kube asks for one", async () => {
  const answer = await server.request("GET", `${LOG}/unbound/log?container=app`);
  expect(answer.status).toBe(204);
  expectStatus(
    await sendJson(server, "GET", `${LOG}/unbound/log`),
    400,
    "BadRequest",
    "a container name must be specified for pod unbound, choose one of: [app sidecar]",
  );
});

test("kubectl logs reads a simulated kubelet's log with --tail, --timestamps and --limit-bytes", async () => {
  expect(await kubectlOk(server, ["logs", "talker"])).toBe("first line\nsecond line\nthird line\n");
  expect(await kubectlOk(server, ["logs", "talker", "--tail=1"])).toBe("third line\n");
  expect(await kubectlOk(server, ["logs", "talker", "--timestamps", "--tail=1"])).toMatch(
    /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z third line\n$/,
  );
  expect(await kubectlOk(server, ["logs", "talker", "--limit-bytes=5"])).toBe("first");
});

test("kubectl logs --previous: the kubelet's 400 when the container never restarted", async () => {
  const result = await server.kubectl(["logs", "talker", "--previous"]);
  expect(result.code).not.toBe(0);
  expect(result.stderr).toContain('previous terminated container "app" in pod "talker" not found');
});

test("kubectl logs -f streams the log and ends when the pod goes", async () => {
  const follow = server.kubectlInBackground(["logs", "-f", "talker"]);
  await follow.waitFor((out) => out.includes("third line"));
  await kubectlOk(server, ["delete", "pod", "talker", "--wait=false"]);
  const result = await follow.waitForExit();
  expect(result.code).toBe(0);
  expect(result.stdout).toBe("first line\nsecond line\nthird line\n");
});

test("streamLocation: exec, attach and portforward on a pod without a node answer kube's 400", async () => {
  for (const sub of ["exec?container=app&command=ls", "attach?container=app", "portforward?ports=80"]) {
    expectStatus(await sendJson(server, "POST", `${LOG}/unbound/${sub}`), 400, "BadRequest", "pod unbound does not have a host assigned");
  }
  expectStatus(
    await sendJson(server, "POST", `${LOG}/unbound/exec?container=nope&command=ls`),
    400,
    "BadRequest",
    "container nope is not valid for pod unbound",
  );
  expectStatus(await sendJson(server, "GET", `${LOG}/ghost/exec?command=ls`), 404, "NotFound", 'pods "ghost" not found');
});

test("kubectl exec on a simulated node fails the way kube does when the kubelet cannot be dialled", async () => {
  await kubectlOk(server, ["run", "shell", "--image=busybox"]);
  await kubectlUntil(server, ["get", "pod", "shell", "-o", "jsonpath={.status.phase}"], (out) => out === "Running");
  const result = await server.kubectl(["exec", "shell", "--", "ls"]);
  expect(result.code).not.toBe(0);
  expect(result.stderr).toContain("error dialing backend");
  const answer = await sendJson(server, "POST", `${LOG}/shell/exec?command=ls&stdout=true`);
  expect(answer.status).toBe(500);
  expect(answer.body).toMatchObject({ kind: "Status", status: "Failure", code: 500 });
  expect(answer.body.reason).toBeUndefined();
  expect(answer.body.message).toStartWith("error dialing backend: ");
});
