/**
 * pods/ephemeralcontainers end to end: GET answers the pod, PUT/PATCH change only spec.ephemeralContainers
 * (kube's dropNonEphemeralContainerUpdates), ValidatePodEphemeralContainersUpdate refuses removals and changes,
 * simulated kubelets start the containers, and `kubectl debug -it` gets as far as kube's without a node agent.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";
import { expectStatus, getJson, sendJson } from "./_api.ts";
import { kubectlUntil } from "./_workloads.ts";

let server: TestServer;
const POD = "/api/v1/namespaces/default/pods/target";
const EPHEMERAL = `${POD}/ephemeralcontainers`;

beforeAll(async () => {
  server = await startServer(["--simulated-nodes=1"]);
  await kubectlOk(server, ["run", "target", "--image=busybox"]);
  await kubectlUntil(server, ["get", "pod", "target", "-o", "jsonpath={.status.phase}"], (out) => out === "Running");
});
afterAll(async () => {
  await server?.stop();
});

test("kubectl debug -it adds an ephemeral container that runs on the simulated node, then finds no node agent to attach to", async () => {
  const result = await server.kubectl(
    ["debug", "-it", "target", "--image=busybox", "--target=target", "--container=debugger", "--", "sh"],
    { stdin: "" },
  );
  expect(result.stderr).toContain("couldn't attach to pod/target");
  expect(result.stderr).toContain("error dialing backend");
  const pod = await getJson(server, POD);
  expect(pod.spec.ephemeralContainers).toEqual([
    expect.objectContaining({ name: "debugger", image: "busybox", targetContainerName: "target", command: ["sh"] }),
  ]);
  const status = await kubectlUntil(server, [
    "get",
    "pod",
    "target",
    "-o",
    "jsonpath={.status.ephemeralContainerStatuses[0].state.running.startedAt}",
  ], (out) => out !== "");
  expect(status).toMatch(/^\d{4}-/);
});

test("GET pods/ephemeralcontainers answers the pod", async () => {
  const pod = await getJson(server, EPHEMERAL);
  expect(pod).toMatchObject({ kind: "Pod", metadata: { name: "target" } });
});

test("dropNonEphemeralContainerUpdates: a PUT to the subresource changes only ephemeral containers", async () => {
  const pod = await getJson(server, EPHEMERAL);
  pod.metadata.labels = { changed: "yes" };
  pod.spec.ephemeralContainers.push({ name: "second", image: "busybox" });
  const answer = await sendJson(server, "PUT", EPHEMERAL, pod);
  expect(answer.status).toBe(200);
  expect(answer.body.spec.ephemeralContainers.map((c: { name: string }) => c.name)).toEqual(["debugger", "second"]);
  expect(answer.body.metadata.labels).toEqual({ run: "target" });
});

test("ValidatePodEphemeralContainersUpdate: existing ephemeral containers may not be removed or changed", async () => {
  const removed = await sendJson(
    server,
    "PATCH",
    EPHEMERAL,
    [{ op: "remove", path: "/spec/ephemeralContainers/1" }],
    "application/json-patch+json",
  );
  expectStatus(
    removed,
    422,
    "Invalid",
    'Pod "target" is invalid: spec.ephemeralContainers: Forbidden: existing ephemeral containers "second" may not be removed\n',
  );
  const changed = await sendJson(server, "PATCH", EPHEMERAL, [{
    op: "replace",
    path: "/spec/ephemeralContainers/1/image",
    value: "alpine",
  }], "application/json-patch+json");
  expectStatus(
    changed,
    422,
    "Invalid",
    /^Pod "target" is invalid: spec.ephemeralContainers: Forbidden: existing ephemeral containers "second" may not be changed\n/,
  );
});

test("validateEphemeralContainers: names must be unique across the pod and ports are not for ephemeral containers", async () => {
  const answer = await sendJson(server, "PATCH", EPHEMERAL, {
    spec: { ephemeralContainers: [{ name: "target", image: "busybox", ports: [{ containerPort: 80 }] }] },
  }, "application/strategic-merge-patch+json");
  expect(answer.status).toBe(422);
  expect(answer.body.details.causes).toEqual(expect.arrayContaining([
    expect.objectContaining({ reason: "FieldValueDuplicate", field: expect.stringMatching(/^spec\.ephemeralContainers\[\d\]\.name$/) }),
    expect.objectContaining({
      reason: "FieldValueForbidden",
      field: expect.stringMatching(/^spec\.ephemeralContainers\[\d\]\.ports$/),
      message: "Forbidden: cannot be set for an Ephemeral Container",
    }),
  ]));
});

test("ValidatePodCreate: ephemeral containers cannot be set on create", async () => {
  const answer = await sendJson(server, "POST", "/api/v1/namespaces/default/pods", {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "early" },
    spec: { containers: [{ name: "app", image: "app:1" }], ephemeralContainers: [{ name: "debug", image: "busybox" }] },
  });
  expectStatus(answer, 422, "Invalid", 'Pod "early" is invalid: spec.ephemeralContainers: Forbidden: cannot be set on create');
});
