/**
 * The Events kube's controllers record, as kubectl describe and kubectl get events show them: each controller's
 * reasons and message texts (deployment sync.go scaleReplicaSet, controller_utils.go RealPodControl,
 * job_controller.go recordJobFinished, cronjob_controllerv2.go syncCronJob, stateful_pod_control.go recordPodEvent,
 * kube-scheduler's bind and handleSchedulingFailure, disruption trySync), and the EventCorrelator's counting of a
 * repeated Event (events_cache.go eventObserve).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlUntil } from "./_workloads.ts";

let server: TestServer;
beforeAll(async () => {
  // A CronJob clock 60 times faster makes a */1 schedule fire every second.
  server = await startServer(["--simulated-nodes=2", "--cronjob-clock-rate=60"]);
});
afterAll(async () => {
  await server?.stop();
});

interface CoreEvent {
  type: string;
  reason: string;
  message: string;
  count?: number;
  source?: { component?: string };
  reportingComponent?: string;
  involvedObject: { kind: string; name: string };
}

async function eventsAbout(kind: string, name: string, namespace = "default"): Promise<CoreEvent[]> {
  const result = await server.kubectl(["get", "events", "-n", namespace, "-o", "json"]);
  expect(result.code).toBe(0);
  return (JSON.parse(result.stdout).items as CoreEvent[]).filter((e) => e.involvedObject.kind === kind && e.involvedObject.name === name);
}

/** Polls until an Event about the object matches `wanted`; returns all Events about it then. */
async function untilEvent(kind: string, name: string, wanted: (e: CoreEvent) => boolean, timeoutMs = 30_000): Promise<CoreEvent[]> {
  const deadline = Date.now() + timeoutMs;
  let events: CoreEvent[] = [];
  while (Date.now() < deadline) {
    events = await eventsAbout(kind, name);
    if (events.some(wanted)) return events;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no matching Event about ${kind}/${name}; saw:\n${events.map((e) => `${e.reason}: ${e.message}`).join("\n")}`);
}

test("scaleReplicaSet: a Deployment scaled up then down records ScalingReplicaSet from deployment-controller with kube 1.26's messages", async () => {
  expect((await server.kubectl(["create", "deployment", "web", "--image=nginx", "--replicas=2"])).code).toBe(0);
  await kubectlUntil(server, ["get", "deployment", "web", "-o", "jsonpath={.status.readyReplicas}"], (out) => out === "2");
  const rs = (await server.kubectl(["get", "rs", "-l", "app=web", "-o", "jsonpath={.items[0].metadata.name}"])).stdout;
  expect((await server.kubectl(["scale", "deployment", "web", "--replicas=4"])).code).toBe(0);
  await untilEvent("Deployment", "web", (e) => e.message === `Scaled up replica set ${rs} to 4 from 2`);
  expect((await server.kubectl(["scale", "deployment", "web", "--replicas=1"])).code).toBe(0);
  const events = await untilEvent("Deployment", "web", (e) => e.message === `Scaled down replica set ${rs} to 1 from 4`);
  const scaling = events.filter((e) => e.reason === "ScalingReplicaSet");
  expect(scaling.map((e) => e.message)).toEqual([
    `Scaled up replica set ${rs} to 2`,
    `Scaled up replica set ${rs} to 4 from 2`,
    `Scaled down replica set ${rs} to 1 from 4`,
  ]);
  expect(new Set(scaling.map((e) => `${e.type} ${e.source?.component}`))).toEqual(new Set(["Normal deployment-controller"]));
  const described = await server.kubectl(["describe", "deployment", "web"]);
  expect(described.stdout).toMatch(
    new RegExp(`Normal\\s+ScalingReplicaSet\\s+\\S+\\s+deployment-controller\\s+Scaled down replica set ${rs} to 1 from 4`),
  );
});

test("RealPodControl: a ReplicaSet records SuccessfulCreate 'Created pod: <pod>' and SuccessfulDelete 'Deleted pod: <pod>'", async () => {
  const rs = {
    apiVersion: "apps/v1",
    kind: "ReplicaSet",
    metadata: { name: "front" },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: "front" } },
      template: { metadata: { labels: { app: "front" } }, spec: { containers: [{ name: "c", image: "nginx" }] } },
    },
  };
  expect((await server.kubectl(["apply", "-f", "-"], { stdin: JSON.stringify(rs) })).code).toBe(0);
  await kubectlUntil(server, ["get", "pods", "-l", "app=front", "-o", "name"], (out) => out.trim().split("\n").length === 2);
  const pods = (await server.kubectl(["get", "pods", "-l", "app=front", "-o", "jsonpath={.items[*].metadata.name}"])).stdout.split(" ");
  const created = await untilEvent("ReplicaSet", "front", (e) => e.message === `Created pod: ${pods[1]}`);
  expect(created.filter((e) => e.reason === "SuccessfulCreate").map((e) => e.message).sort()).toEqual(
    pods.map((p) => `Created pod: ${p}`).sort(),
  );
  expect((await server.kubectl(["scale", "rs", "front", "--replicas=1"])).code).toBe(0);
  const events = await untilEvent("ReplicaSet", "front", (e) => e.reason === "SuccessfulDelete");
  const deleted = events.find((e) => e.reason === "SuccessfulDelete")!;
  expect(pods.map((p) => `Deleted pod: ${p}`)).toContain(deleted.message);
  expect(deleted.source?.component).toBe("replicaset-controller");
  const described = await server.kubectl(["describe", "rs", "front"]);
  expect(described.stdout).toMatch(/Normal\s+SuccessfulDelete\s+\S+\s+replicaset-controller\s+Deleted pod: front-/);
});

test("recordJobFinished: a Job records SuccessfulCreate for its pod and Normal Completed 'Job completed' from job-controller", async () => {
  expect((await server.kubectl(["create", "job", "pi", "--image=perl"])).code).toBe(0);
  const events = await untilEvent("Job", "pi", (e) => e.reason === "Completed");
  const pod = (await server.kubectl(["get", "pods", "-l", "job-name=pi", "-o", "jsonpath={.items[0].metadata.name}"])).stdout;
  expect(events.map((e) => `${e.type} ${e.reason} ${e.source?.component} ${e.message}`)).toEqual([
    `Normal SuccessfulCreate job-controller Created pod: ${pod}`,
    "Normal Completed job-controller Job completed",
  ]);
  const described = await server.kubectl(["describe", "job", "pi"]);
  expect(described.stdout).toMatch(/Normal\s+Completed\s+\S+\s+job-controller\s+Job completed/);
});

test("syncCronJob: a CronJob records SuccessfulCreate 'Created job <job>', SawCompletedJob and, past its history limit, SuccessfulDelete 'Deleted job <job>' from cronjob-controller", async () => {
  expect((await server.kubectl(["create", "cronjob", "tick", "--image=busybox", "--schedule=*/1 * * * *"])).code).toBe(0);
  const events = await untilEvent("CronJob", "tick", (e) => e.reason === "SuccessfulCreate");
  const created = events.find((e) => e.reason === "SuccessfulCreate")!;
  expect(created.message).toMatch(/^Created job tick-\d+$/);
  expect(created.source?.component).toBe("cronjob-controller");
  const job = created.message.slice("Created job ".length);
  expect((await server.kubectl(["get", "job", job, "-o", "jsonpath={.metadata.ownerReferences[0].name}"])).stdout).toBe("tick");
  await untilEvent("CronJob", "tick", (e) => e.reason === "SawCompletedJob" && e.message === `Saw completed job: ${job}, status: Complete`);
  // Past successfulJobsHistoryLimit (3) the oldest finished Jobs go: removeOldestJobs' deleteJob records each.
  await untilEvent("CronJob", "tick", (e) => e.reason === "SuccessfulDelete" && e.message === `Deleted job ${job}`);
  expect((await server.kubectl(["delete", "cronjob", "tick"])).code).toBe(0);
});

test("recordPodEvent: a StatefulSet records SuccessfulCreate 'create Pod <pod> in StatefulSet <set> successful'", async () => {
  const sts = {
    apiVersion: "apps/v1",
    kind: "StatefulSet",
    metadata: { name: "db" },
    spec: {
      replicas: 1,
      serviceName: "db",
      selector: { matchLabels: { app: "db" } },
      template: { metadata: { labels: { app: "db" } }, spec: { containers: [{ name: "c", image: "postgres" }] } },
    },
  };
  expect((await server.kubectl(["apply", "-f", "-"], { stdin: JSON.stringify(sts) })).code).toBe(0);
  const events = await untilEvent("StatefulSet", "db", (e) => e.reason === "SuccessfulCreate");
  expect(events.map((e) => `${e.type} ${e.reason} ${e.source?.component} ${e.message}`)).toEqual([
    "Normal SuccessfulCreate statefulset-controller create Pod db-0 in StatefulSet db successful",
  ]);
});

test("kube-scheduler's bind: a scheduled Pod records Scheduled 'Successfully assigned <ns>/<pod> to <node>' from default-scheduler", async () => {
  expect((await server.kubectl(["run", "solo", "--image=nginx"])).code).toBe(0);
  const events = await untilEvent("Pod", "solo", (e) => e.reason === "Scheduled");
  const node = (await server.kubectl(["get", "pod", "solo", "-o", "jsonpath={.spec.nodeName}"])).stdout;
  const scheduled = events.find((e) => e.reason === "Scheduled")!;
  expect(scheduled).toMatchObject({
    type: "Normal",
    message: `Successfully assigned default/solo to ${node}`,
    reportingComponent: "default-scheduler",
  });
  // The events.k8s.io recorder's shape: an action and a reportingController, no source.
  const v1 = await server.request("GET", "/apis/events.k8s.io/v1/namespaces/default/events");
  const item = ((await v1.json()) as { items: Record<string, unknown>[] }).items.find((e) =>
    (e.regarding as { name?: string }).name === "solo" && e.reason === "Scheduled"
  );
  expect(item).toMatchObject({ action: "Binding", reportingController: "default-scheduler", note: scheduled.message });
  const described = await server.kubectl(["describe", "pod", "solo"]);
  expect(described.stdout).toMatch(
    new RegExp(`Normal\\s+Scheduled\\s+\\S+\\s+default-scheduler\\s+Successfully assigned default/solo to ${node}`),
  );
});

test("eventObserve: the same scaling repeated increments one Event's count (PATCH) instead of creating another", async () => {
  expect((await server.kubectl(["create", "deployment", "toggle", "--image=nginx", "--replicas=1"])).code).toBe(0);
  await untilEvent("Deployment", "toggle", (e) => e.reason === "ScalingReplicaSet");
  const rs = (await server.kubectl(["get", "rs", "-l", "app=toggle", "-o", "jsonpath={.items[0].metadata.name}"])).stdout;
  const up = `Scaled up replica set ${rs} to 2 from 1`;
  for (const count of [2, 1, 2]) {
    expect((await server.kubectl(["scale", "deployment", "toggle", `--replicas=${count}`])).code).toBe(0);
    await kubectlUntil(server, ["get", "rs", rs, "-o", "jsonpath={.spec.replicas}"], (out) => out === String(count));
  }
  const events = await untilEvent("Deployment", "toggle", (e) => e.message === up && e.count === 2);
  expect(events.filter((e) => e.message === up)).toHaveLength(1);
  expect(events.filter((e) => e.reason === "ScalingReplicaSet").map((e) => `${e.count} ${e.message}`)).toEqual([
    `1 Scaled up replica set ${rs} to 1`,
    `2 ${up}`,
    `1 Scaled down replica set ${rs} to 1 from 2`,
  ]);
  const described = await server.kubectl(["describe", "deployment", "toggle"]);
  expect(described.stdout).toMatch(new RegExp(`Normal\\s+ScalingReplicaSet\\s+\\S+ \\(x2 over \\S+\\)\\s+deployment-controller\\s+${up}`));
});

test("RealPodControl: a DaemonSet records SuccessfulCreate 'Created pod: <pod>' from daemonset-controller for each node's pod", async () => {
  const ds = {
    apiVersion: "apps/v1",
    kind: "DaemonSet",
    metadata: { name: "agent" },
    spec: {
      selector: { matchLabels: { app: "agent" } },
      template: { metadata: { labels: { app: "agent" } }, spec: { containers: [{ name: "c", image: "busybox" }] } },
    },
  };
  expect((await server.kubectl(["apply", "-f", "-"], { stdin: JSON.stringify(ds) })).code).toBe(0);
  await kubectlUntil(server, ["get", "pods", "-l", "app=agent", "-o", "name"], (out) => out.trim().split("\n").length === 2);
  const pods = (await server.kubectl(["get", "pods", "-l", "app=agent", "-o", "jsonpath={.items[*].metadata.name}"])).stdout.split(" ");
  for (const pod of pods) await untilEvent("DaemonSet", "agent", (e) => e.message === `Created pod: ${pod}`);
  const created = (await eventsAbout("DaemonSet", "agent")).filter((e) => e.reason === "SuccessfulCreate");
  expect(created.map((e) => `${e.source?.component} ${e.message}`).sort()).toEqual(
    pods.map((p) => `daemonset-controller Created pod: ${p}`).sort(),
  );
});

test("trySync: a PodDisruptionBudget selecting no pods records Normal NoPods 'No matching pods found' from controllermanager", async () => {
  expect((await server.kubectl(["create", "pdb", "lonely", "--selector=app=nothing", "--min-available=1"])).code).toBe(0);
  const events = await untilEvent("PodDisruptionBudget", "lonely", (e) => e.reason === "NoPods");
  expect(events.map((e) => `${e.type} ${e.reason} ${e.source?.component}: ${e.message}`)).toEqual([
    "Normal NoPods controllermanager: No matching pods found",
  ]);
});

test("handleSchedulingFailure: a Pod that fits no node records Warning FailedScheduling from default-scheduler with its PodScheduled message, repeats as a series", async () => {
  const pod = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "huge" },
    spec: { containers: [{ name: "c", image: "nginx", resources: { requests: { cpu: "1000" } } }] },
  };
  expect((await server.kubectl(["apply", "-f", "-"], { stdin: JSON.stringify(pod) })).code).toBe(0);
  const events = await untilEvent("Pod", "huge", (e) => e.reason === "FailedScheduling");
  const condition =
    (await server.kubectl(["get", "pod", "huge", "-o", 'jsonpath={.status.conditions[?(@.type=="PodScheduled")].message}'])).stdout;
  expect(condition).toStartWith("0/2 nodes are available: ");
  expect(events[0]).toMatchObject({ type: "Warning", reportingComponent: "default-scheduler", message: condition });
  // An Event's regarding reference carries the pod's resourceVersion, which the condition write moved on: the next
  // attempt's Event is another one, and the attempts after it, on the unchanged pod, are isomorphic to it (events.k8s.io
  // getKey), so it becomes a series of 2.
  const seriesOf = (e: CoreEvent) => (e as { series?: { count?: number } }).series?.count;
  const after = await untilEvent("Pod", "huge", (e) => seriesOf(e) === 2);
  expect(after.map((e) => `${e.message === condition} ${seriesOf(e)}`)).toEqual(["true undefined", "true 2"]);
  const described = await server.kubectl(["describe", "pod", "huge"]);
  expect(described.stdout).toMatch(/Warning\s+FailedScheduling\s+\S+ \(x2 over \S+\)\s+default-scheduler\s+0\/2 nodes are available/);
});

test("syncJob: a Job suspended then resumed records Normal Suspended 'Job suspended' and Resumed 'Job resumed'", async () => {
  const job = {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { name: "paused" },
    spec: { suspend: true, template: { spec: { restartPolicy: "Never", containers: [{ name: "c", image: "busybox" }] } } },
  };
  expect((await server.kubectl(["apply", "-f", "-"], { stdin: JSON.stringify(job) })).code).toBe(0);
  await untilEvent("Job", "paused", (e) => e.reason === "Suspended");
  expect((await server.kubectl(["patch", "job", "paused", "-p", '{"spec":{"suspend":false}}'])).code).toBe(0);
  const events = await untilEvent("Job", "paused", (e) => e.reason === "Resumed");
  expect(events.filter((e) => e.reason !== "SuccessfulCreate").map((e) => `${e.type} ${e.reason} ${e.source?.component}: ${e.message}`))
    .toEqual([
      "Normal Suspended job-controller: Job suspended",
      "Normal Resumed job-controller: Job resumed",
    ]);
});

test("recordJobFinished: a Job past its activeDeadlineSeconds records Warning DeadlineExceeded with its Failed condition's message", async () => {
  const job = {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { name: "late" },
    spec: { activeDeadlineSeconds: 1, template: { spec: { restartPolicy: "Never", containers: [{ name: "c", image: "busybox" }] } } },
  };
  expect((await server.kubectl(["apply", "-f", "-"], { stdin: JSON.stringify(job) })).code).toBe(0);
  const events = await untilEvent("Job", "late", (e) => e.reason === "DeadlineExceeded");
  expect(events.find((e) => e.reason === "DeadlineExceeded")).toMatchObject({
    type: "Warning",
    message: "Job was active longer than specified deadline",
    source: { component: "job-controller" },
  });
  expect(events.some((e) => e.reason === "Completed")).toBe(false);
});

test("refused creates: a Deployment records ReplicaSetCreateError (getNewReplicaSet), a CronJob FailedCreate 'Error creating job: ...' (syncCronJob)", async () => {
  expect((await server.kubectl(["create", "namespace", "capped"])).code).toBe(0);
  const hard = "--hard=count/replicasets.apps=0,count/jobs.batch=0";
  expect((await server.kubectl(["create", "quota", "nothing", "-n", "capped", hard])).code).toBe(0);
  expect((await server.kubectl(["create", "deployment", "stuck", "-n", "capped", "--image=nginx"])).code).toBe(0);
  expect((await server.kubectl(["create", "cronjob", "stuck", "-n", "capped", "--image=busybox", "--schedule=*/1 * * * *"])).code).toBe(0);
  const deadline = Date.now() + 30_000;
  let notes: string[] = [];
  while (Date.now() < deadline && notes.length < 2) {
    const list = JSON.parse((await server.kubectl(["get", "events", "-n", "capped", "-o", "json"])).stdout).items as CoreEvent[];
    notes = list.filter((e) => e.type === "Warning").map((e) =>
      `${e.involvedObject.kind} ${e.reason} ${e.source?.component}: ${e.message}`
    );
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect(notes.find((n) => n.startsWith("Deployment"))).toMatch(
    /^Deployment ReplicaSetCreateError deployment-controller: Failed to create new replica set "stuck-\w+": replicasets\.apps "stuck-\w+" is forbidden: exceeded quota: nothing/,
  );
  expect(notes.find((n) => n.startsWith("CronJob"))).toMatch(
    /^CronJob FailedCreate cronjob-controller: Error creating job: jobs\.batch "stuck-\d+" is forbidden: exceeded quota: nothing/,
  );
});
