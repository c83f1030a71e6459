/**
 * Values written back as kube's JSON marshalling writes them: metav1.Time in UTC whole seconds, metav1.MicroTime
 * in UTC with six fraction digits (their MarshalJSON), whatever offset and precision the client sent; int64 fields
 * and custom resources' integers exact beyond 2^53, as Go's int64 keeps them.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { resolve } from "node:path";
import { createNamespace, getJson, openWatch, sendJson } from "./_api.ts";
import { kubectlOk } from "./_kubectl.ts";
import { startServer, type TestServer } from "./harness.ts";

let server: TestServer;
const NS = "values";

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NS);
});
afterAll(async () => {
  await server?.stop();
});

test("Time and MicroTime fields are stored and answered in UTC at their own precision (metav1.Time/MicroTime MarshalJSON)", async () => {
  const lease = {
    apiVersion: "coordination.k8s.io/v1",
    kind: "Lease",
    metadata: { name: "clock" },
    spec: { holderIdentity: "me", acquireTime: "2024-05-01T12:00:00.123456+02:00", renewTime: "2024-05-01T10:00:00.123456Z" },
  };
  const path = `/apis/coordination.k8s.io/v1/namespaces/${NS}/leases`;
  const created = await sendJson(server, "POST", path, lease);
  expect(created.status).toBe(201);
  expect(created.body.spec).toMatchObject({ acquireTime: "2024-05-01T10:00:00.123456Z", renewTime: "2024-05-01T10:00:00.123456Z" });
  expect((await getJson(server, `${path}/clock`)).spec.acquireTime).toBe("2024-05-01T10:00:00.123456Z");

  const event = {
    apiVersion: "v1",
    kind: "Event",
    metadata: { name: "happened" },
    involvedObject: { kind: "Lease", name: "clock", namespace: NS },
    reason: "Test",
    firstTimestamp: "2024-05-01T05:30:00.999-04:30",
    lastTimestamp: "2024-05-01T10:00:00Z",
  };
  const stored = await sendJson(server, "POST", `/api/v1/namespaces/${NS}/events`, event);
  expect(stored.status).toBe(201);
  expect([stored.body.firstTimestamp, stored.body.lastTimestamp]).toEqual(["2024-05-01T10:00:00Z", "2024-05-01T10:00:00Z"]);
  const patched = await sendJson(server, "PATCH", `/api/v1/namespaces/${NS}/events/happened`, {
    lastTimestamp: "2024-05-01T11:00:00+01:00",
  }, "application/merge-patch+json");
  expect(patched.body.lastTimestamp).toBe("2024-05-01T10:00:00Z");
});

const INT64_MAX = "9223372036854775807";

async function rawText(path: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await server.request("GET", path, { headers: { Accept: "application/json", ...headers } });
  expect({ path, status: response.status }).toEqual({ path, status: 200 });
  return await response.text();
}

function job(name: string, deadline: string): string {
  const template = { spec: { restartPolicy: "Never", containers: [{ name: "c", image: "busybox" }] } };
  return `{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"${name}"},"spec":{"activeDeadlineSeconds":${deadline},"template":${
    JSON.stringify(template)
  }}}`;
}

test("an int64 field keeps 9223372036854775807 exactly through create, get, list, watch, apply and kubectl", async () => {
  const jobs = `/apis/batch/v1/namespaces/${NS}/jobs`;
  const watch = await openWatch(server, `${jobs}?watch=true`);
  const created = await server.request("POST", jobs, { body: job("deadline", INT64_MAX), headers: { "Content-Type": "application/json" } });
  expect(created.status).toBe(201);
  expect(await created.text()).toContain(`"activeDeadlineSeconds":${INT64_MAX}`);
  expect(await rawText(`${jobs}/deadline`)).toContain(`"activeDeadlineSeconds":${INT64_MAX}`);
  expect(await rawText(jobs)).toContain(`"activeDeadlineSeconds":${INT64_MAX}`);
  expect(await rawText(`${jobs}/deadline`, { Accept: "application/yaml" })).toContain(`activeDeadlineSeconds: ${INT64_MAX}`);
  const added = await watch.until((event) => event.type === "ADDED" && event.object.metadata.name === "deadline");
  expect(added.length).toBeGreaterThan(0);
  await watch.close();
  expect(await kubectlOk(server, ["-n", NS, "get", "job", "deadline", "-o", "jsonpath={.spec.activeDeadlineSeconds}"])).toBe(INT64_MAX);

  const applied = await server.request("PATCH", `${jobs}/applied?fieldManager=values`, {
    body:
      `apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: applied\nspec:\n  activeDeadlineSeconds: 9007199254740993\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: c, image: busybox}]\n`,
    headers: { "Content-Type": "application/apply-patch+yaml" },
  });
  expect(applied.status).toBe(201);
  expect(await rawText(`${jobs}/applied`)).toContain('"activeDeadlineSeconds":9007199254740993');
  const overflow = await server.request("POST", jobs, {
    body: job("overflow", "9223372036854775808"),
    headers: { "Content-Type": "application/json" },
  });
  expect(overflow.status).toBe(400);
  expect((await overflow.json()).message).toContain(
    "json: cannot unmarshal number 9223372036854775808 into Go struct field JobSpec.spec.activeDeadlineSeconds of type int64",
  );
});

test("a custom resource's integer field keeps values beyond 2^53 exactly, through create and merge patch", async () => {
  await kubectlOk(server, ["apply", "-f", resolve(import.meta.dir, "testdata/crontab-crd.yaml")]);
  await kubectlOk(server, ["wait", "--for", "condition=established", "--timeout=10s", "crd/crontabs.stable.example.com"]);
  const crontabs = `/apis/stable.example.com/v1/namespaces/${NS}/crontabs`;
  const body =
    `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"big"},"spec":{"image":"i","replicas":${INT64_MAX}}}`;
  const created = await server.request("POST", crontabs, { body, headers: { "Content-Type": "application/json" } });
  expect(created.status).toBe(201);
  expect(await rawText(`${crontabs}/big`)).toContain(`"replicas":${INT64_MAX}`);
  const patched = await server.request("PATCH", `${crontabs}/big`, {
    body: '{"spec":{"replicas":9007199254740993}}',
    headers: { "Content-Type": "application/merge-patch+json" },
  });
  expect(patched.status).toBe(200);
  expect(await patched.text()).toContain('"replicas":9007199254740993');
});
