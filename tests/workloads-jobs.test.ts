import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlUntil } from "./_workloads.ts";

let server: TestServer;
beforeAll(async () => {
  // A CronJob clock 60 times faster makes a */1 schedule fire every second.
  server = await startServer(["--simulated-nodes=3", "--cronjob-clock-rate=60"]);
});
afterAll(async () => {
  await server?.stop();
});

test("a Job's pods succeed on simulated nodes and the Job completes", async () => {
  expect((await server.kubectl(["create", "job", "pi", "--image=perl"])).code).toBe(0);
  const wait = await server.kubectl(["wait", "--for=condition=complete", "job/pi", "--timeout=30s"]);
  expect(wait.stdout).toContain("condition met");
  const status = await server.kubectl([
    "get",
    "job",
    "pi",
    "-o",
    "jsonpath={.status.succeeded} {.status.conditions[0].type} {.status.completionTime}",
  ]);
  expect(status.stdout).toMatch(/^1 Complete \d{4}-\d\d-\d\dT/);
  const pods = await server.kubectl(["get", "pods", "-l", "job-name=pi", "-o", "jsonpath={.items[*].status.phase}"]);
  expect(pods.stdout).toBe("Succeeded");
});

test("a Job with completions 3 and parallelism 2 runs three pods to success", async () => {
  const job = {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { name: "batch3" },
    spec: { completions: 3, parallelism: 2, template: { spec: { restartPolicy: "Never", containers: [{ name: "c", image: "busybox" }] } } },
  };
  expect((await server.kubectl(["apply", "-f", "-"], { stdin: JSON.stringify(job) })).code).toBe(0);
  await kubectlUntil(server, ["get", "job", "batch3", "-o", "jsonpath={.status.succeeded}"], (out) => out === "3", 30_000);
  const pods = await server.kubectl(["get", "pods", "-l", "job-name=batch3", "-o", "name"]);
  expect(pods.stdout.trim().split("\n")).toHaveLength(3);
});

test("a CronJob creates Jobs on its schedule and records lastScheduleTime", async () => {
  expect((await server.kubectl(["create", "cronjob", "tick", "--image=busybox", "--schedule=*/1 * * * *"])).code).toBe(0);
  await kubectlUntil(server, ["get", "jobs", "-o", "jsonpath={.items[*].metadata.ownerReferences[0].name}"], (out) => out.includes("tick"));
  const status = await kubectlUntil(server, ["get", "cronjob", "tick", "-o", "jsonpath={.status.lastScheduleTime}"], (out) => out !== "");
  expect(status).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00Z$/);
  const names = await server.kubectl(["get", "jobs", "-o", "jsonpath={.items[*].metadata.name}"]);
  expect(names.stdout).toMatch(/tick-\d+/);
});

test("a CronJob keeps no more finished Jobs than successfulJobsHistoryLimit", async () => {
  await kubectlUntil(server, ["get", "cronjob", "tick", "-o", "jsonpath={.status.lastSuccessfulTime}"], (out) => out !== "", 30_000);
  await new Promise((resolve) => setTimeout(resolve, 6000));
  const jobs = await server.kubectl(["get", "jobs", "-o", 'jsonpath={range .items[*]}{.metadata.name} {.status.succeeded}{"\\n"}{end}']);
  const finished = jobs.stdout.split("\n").filter((l) => l.startsWith("tick-") && l.endsWith(" 1"));
  expect(finished.length).toBeLessThanOrEqual(3);
  expect(finished.length).toBeGreaterThan(0);
});
