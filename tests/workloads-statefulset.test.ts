import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";
import { kubectlUntil, lines } from "./_workloads.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startServer(["--simulated-nodes=3"]);
});
afterAll(async () => {
  await server?.stop();
});

const statefulSet = (name: string, extra: { podManagementPolicy?: string } = {}) => `
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: ${name}
spec:
  serviceName: ${name}
  replicas: 3
  ${extra.podManagementPolicy ? `podManagementPolicy: ${extra.podManagementPolicy}` : ""}
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      containers:
      - name: nginx
        image: nginx
        volumeMounts: [{name: data, mountPath: /data}]
  volumeClaimTemplates:
  - metadata: {name: data}
    spec:
      accessModes: [ReadWriteOnce]
      resources: {requests: {storage: 1Gi}}
`;

const podColumns = (
  app: string,
) => [
  "get",
  "pods",
  "-l",
  `app=${app}`,
  "-o",
  'jsonpath={range .items[*]}{.metadata.name} {.spec.containers[0].image} {.metadata.creationTimestamp}{"\\n"}{end}',
];

test("a StatefulSet of 3 reaches 3/3 with ordered pod names, stable hostnames and claims from its templates", async () => {
  await kubectlOk(server, ["apply", "-f", "-"], statefulSet("db"));
  expect(await kubectlOk(server, ["rollout", "status", "statefulset/db", "--timeout=40s"])).toContain(
    "partitioned roll out complete: 3 new pods have been updated",
  );
  expect(await kubectlOk(server, ["get", "statefulset", "db", "-o", "jsonpath={.status.readyReplicas}/{.status.replicas}"])).toBe("3/3");
  const pods = lines(
    await kubectlOk(server, [
      "get",
      "pods",
      "-l",
      "app=db",
      "-o",
      'jsonpath={range .items[*]}{.metadata.name} {.spec.hostname}.{.spec.subdomain} {.metadata.labels.statefulset\\.kubernetes\\.io/pod-name} {.spec.volumes[0].persistentVolumeClaim.claimName}{"\\n"}{end}',
    ]),
  );
  expect(pods).toEqual(["db-0 db-0.db db-0 data-db-0", "db-1 db-1.db db-1 data-db-1", "db-2 db-2.db db-2 data-db-2"]);
  expect((await kubectlOk(server, ["get", "pvc", "-l", "app=db", "-o", "jsonpath={.items[*].metadata.name}"])).split(" ")).toEqual([
    "data-db-0",
    "data-db-1",
    "data-db-2",
  ]);
  const status = JSON.parse(await kubectlOk(server, ["get", "statefulset", "db", "-o", "jsonpath={.status}"]));
  expect(status).toMatchObject({
    replicas: 3,
    readyReplicas: 3,
    currentReplicas: 3,
    updatedReplicas: 3,
    availableReplicas: 3,
    observedGeneration: 1,
    collisionCount: 0,
  });
  expect(status.currentRevision).toBe(status.updateRevision);
  const hashes = await kubectlOk(server, [
    "get",
    "pods",
    "-l",
    "app=db",
    "-o",
    "jsonpath={.items[*].metadata.labels.controller-revision-hash}",
  ]);
  expect(hashes.split(" ")).toEqual([status.updateRevision, status.updateRevision, status.updateRevision]);
});

test("OrderedReady waits for each pod to be Running and Ready while Parallel creates them all", async () => {
  const unscheduled = (name: string, policy: string) =>
    statefulSet(name, { podManagementPolicy: policy }).replace("      containers:", "      schedulerName: none\n      containers:");
  await kubectlOk(server, ["apply", "-f", "-"], unscheduled("ordered", "OrderedReady") + "---\n" + unscheduled("parallel", "Parallel"));
  await kubectlUntil(
    server,
    ["get", "pods", "-l", "app=parallel", "-o", "jsonpath={.items[*].metadata.name}"],
    (out) => out === "parallel-0 parallel-1 parallel-2",
  );
  await kubectlUntil(server, ["get", "statefulset", "ordered", "-o", "jsonpath={.status.replicas}"], (out) => out === "1");
  await new Promise((resolve) => setTimeout(resolve, 1000));
  expect(await kubectlOk(server, ["get", "pods", "-l", "app=ordered", "-o", "jsonpath={.items[*].metadata.name} {.items[*].status.phase}"]))
    .toBe("ordered-0 Pending");
  await kubectlOk(server, ["delete", "statefulset", "ordered", "parallel"]);
});

test("scaling a StatefulSet down removes the highest ordinal and keeps its claim", async () => {
  await kubectlOk(server, ["scale", "statefulset", "db", "--replicas=2"]);
  await kubectlUntil(
    server,
    ["get", "pods", "-l", "app=db", "-o", "jsonpath={.items[*].metadata.name}"],
    (out) => out.trim() === "db-0 db-1",
  );
  expect((await kubectlOk(server, ["get", "pvc", "-l", "app=db", "-o", "jsonpath={.items[*].metadata.name}"])).split(" ")).toEqual([
    "data-db-0",
    "data-db-1",
    "data-db-2",
  ]);
  await kubectlOk(server, ["rollout", "status", "statefulset/db", "--timeout=30s"]);
});

test("an image change rolls out from the highest ordinal down and rollout history and undo work", async () => {
  const before = await kubectlOk(server, ["get", "statefulset", "db", "-o", "jsonpath={.status.currentRevision}"]);
  await kubectlOk(server, ["set", "image", "statefulset/db", "nginx=nginx:1.25"]);
  expect(await kubectlOk(server, ["rollout", "status", "statefulset/db", "--timeout=40s"])).toContain(
    "partitioned roll out complete: 2 new pods have been updated",
  );
  const pods = lines(await kubectlOk(server, podColumns("db"))).map((line) => line.split(" "));
  expect(pods.map(([name, image]) => `${name} ${image}`)).toEqual(["db-0 nginx:1.25", "db-1 nginx:1.25"]);
  // db-1 was replaced first, so it is the older of the two new pods.
  expect(Date.parse(pods[1][2])).toBeLessThanOrEqual(Date.parse(pods[0][2]));
  const status = JSON.parse(await kubectlOk(server, ["get", "statefulset", "db", "-o", "jsonpath={.status}"]));
  expect(status.updateRevision).not.toBe(before);
  expect(status.currentRevision).toBe(status.updateRevision);
  expect(lines(await kubectlOk(server, ["rollout", "history", "statefulset/db"]))).toEqual([
    "statefulset.apps/db",
    "REVISION  CHANGE-CAUSE",
    "1         <none>",
    "2         <none>",
  ]);
  expect(await kubectlOk(server, ["rollout", "history", "statefulset/db", "--revision=2"])).toContain("Image:\tnginx:1.25");
  expect(await kubectlOk(server, ["rollout", "undo", "statefulset/db"])).toContain("rolled back");
  await kubectlUntil(server, podColumns("db"), (out) => lines(out).map((l) => l.split(" ")[1]).join(" ") === "nginx nginx");
  await kubectlOk(server, ["rollout", "status", "statefulset/db", "--timeout=30s"]);
  expect(await kubectlOk(server, ["get", "statefulset", "db", "-o", "jsonpath={.status.updateRevision}"])).toBe(before);
  expect(lines(await kubectlOk(server, ["rollout", "history", "statefulset/db"]))).toEqual([
    "statefulset.apps/db",
    "REVISION  CHANGE-CAUSE",
    "2         <none>",
    "3         <none>",
  ]);
});

test("a partition keeps ordinals below it at the current revision", async () => {
  await kubectlOk(server, ["patch", "statefulset", "db", "-p", '{"spec":{"updateStrategy":{"rollingUpdate":{"partition":1}}}}']);
  await kubectlOk(server, ["set", "image", "statefulset/db", "nginx=nginx:1.26"]);
  expect(await kubectlOk(server, ["rollout", "status", "statefulset/db", "--timeout=30s"])).toContain(
    "partitioned roll out complete: 1 new pods have been updated",
  );
  expect(lines(await kubectlOk(server, podColumns("db"))).map((l) => l.split(" ").slice(0, 2).join(" "))).toEqual([
    "db-0 nginx",
    "db-1 nginx:1.26",
  ]);
});

test("deleting a StatefulSet deletes its pods and revisions", async () => {
  await kubectlOk(server, ["apply", "-f", "-"], statefulSet("cache"));
  await kubectlOk(server, ["rollout", "status", "statefulset/cache", "--timeout=30s"]);
  expect(await kubectlOk(server, ["get", "controllerrevisions", "-l", "app=cache", "-o", "name"])).not.toBe("");
  await kubectlOk(server, ["delete", "statefulset", "cache"]);
  await kubectlUntil(server, ["get", "pods,controllerrevisions", "-l", "app=cache", "-o", "name"], (out) => out.trim() === "");
});
