/**
 * Controllers are API clients (kube-controller-manager with --use-service-account-credentials): each writes as
 * system:serviceaccount:kube-system:<controller>, bound to its bootstrap system:controller:* ClusterRole
 * (bootstrappolicy buildControllerRoles), so its writes pass authorization and admission like a user's.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlUntil, lines } from "./_workloads.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startServer(["--authorization-mode=Node,RBAC", "--simulated-nodes=1"]);
});
afterAll(async () => {
  await server?.stop();
});

const apply = (objects: object[]) => server.kubectl(["apply", "-f", "-"], { stdin: objects.map((o) => JSON.stringify(o)).join("\n---\n") });

function deployment(namespace: string, name: string, replicas: number, container: object = {}): object {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name, namespace },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: "c", image: "nginx", ...container }] } },
    },
  };
}

async function replicaFailure(namespace: string, app: string): Promise<string> {
  return await kubectlUntil(server, [
    "-n",
    namespace,
    "get",
    "rs",
    "-l",
    `app=${app}`,
    "-o",
    'jsonpath={.items[0].status.conditions[?(@.type=="ReplicaFailure")]}',
  ], (out) => out !== "");
}

test("bootstrap RBAC has kube's system:controller roles bound to the controllers' service accounts (buildControllerRoles)", async () => {
  const roles = await server.kubectl(["get", "clusterroles", "-o", "name"]);
  for (
    const name of [
      "replicaset-controller",
      "deployment-controller",
      "job-controller",
      "disruption-controller",
      "certificate-controller",
      "node-controller",
      "ttl-controller",
      "horizontal-pod-autoscaler",
      "generic-garbage-collector",
    ]
  ) {
    expect(roles.stdout).toContain(`clusterrole.rbac.authorization.k8s.io/system:controller:${name}`);
  }
  const binding = await server.kubectl([
    "get",
    "clusterrolebinding",
    "system:controller:replicaset-controller",
    "-o",
    "jsonpath={.roleRef.name} {.subjects[0].kind} {.subjects[0].namespace}/{.subjects[0].name}",
  ]);
  expect(binding.stdout).toBe("system:controller:replicaset-controller ServiceAccount kube-system/replicaset-controller");
  const signer = await server.kubectl([
    "-n",
    "kube-public",
    "get",
    "rolebinding",
    "system:controller:bootstrap-signer",
    "-o",
    "jsonpath={.subjects[0].name}",
  ]);
  expect(signer.stdout).toBe("bootstrap-signer");
  const canCreate = await server.kubectl([
    "auth",
    "can-i",
    "create",
    "pods",
    "--as=system:serviceaccount:kube-system:replicaset-controller",
    "-n",
    "default",
  ]);
  expect(canCreate.stdout.trim()).toBe("yes");
});

test("the controller manager creates each loop's service account in kube-system (SAControllerClientBuilder)", async () => {
  const accounts = await kubectlUntil(
    server,
    ["-n", "kube-system", "get", "serviceaccounts", "-o", "name"],
    (out) => out.includes("replicaset-controller"),
  );
  for (
    const name of [
      "replicaset-controller",
      "deployment-controller",
      "daemon-set-controller",
      "generic-garbage-collector",
      "namespace-controller",
      "node-controller",
    ]
  ) {
    expect(lines(accounts)).toContain(`serviceaccount/${name}`);
  }
  expect(lines(accounts)).not.toContain("serviceaccount/scheduler");
});

test("pods a ReplicaSet makes pass ServiceAccount admission: default service account and the projected token volume", async () => {
  expect((await apply([deployment("default", "web", 1)])).code).toBe(0);
  const pod = await kubectlUntil(server, [
    "get",
    "pods",
    "-l",
    "app=web",
    "-o",
    "jsonpath={.items[0].spec.serviceAccountName} {.items[0].spec.volumes[0].name} {.items[0].spec.volumes[0].projected.sources[0].serviceAccountToken.path}",
  ], (out) => out.trim() !== "");
  expect(pod).toMatch(/^default kube-api-access-[a-z0-9]{5} token$/);
});

test("a pods: 1 ResourceQuota holds a 3-replica Deployment to one pod, and the ReplicaSet records FailedCreate (manageReplicas)", async () => {
  expect((await server.kubectl(["create", "namespace", "quota"])).code).toBe(0);
  expect((await server.kubectl(["-n", "quota", "create", "quota", "one-pod", "--hard=pods=1"])).code).toBe(0);
  expect((await apply([deployment("quota", "three", 3)])).code).toBe(0);
  const condition = JSON.parse(await replicaFailure("quota", "three"));
  expect(condition).toMatchObject({ type: "ReplicaFailure", status: "True", reason: "FailedCreate" });
  expect(condition.message).toContain("exceeded quota: one-pod");
  const events = await kubectlUntil(server, [
    "-n",
    "quota",
    "get",
    "events",
    "--field-selector=reason=FailedCreate",
    "-o",
    'jsonpath={range .items[*]}{.type} {.involvedObject.kind} {.message}{"\\n"}{end}',
  ], (out) => out !== "");
  expect(lines(events)[0]).toMatch(
    /^Warning ReplicaSet Error creating: pods "three-[a-z0-9]+-[a-z0-9]+" is forbidden: exceeded quota: one-pod/,
  );
  const pods = await server.kubectl(["-n", "quota", "get", "pods", "-o", "name"]);
  expect(lines(pods.stdout)).toHaveLength(1);
  // kube's syncRolloutStatus moves the ReplicaSet's failure onto the Deployment.
  const onDeployment = await kubectlUntil(server, [
    "-n",
    "quota",
    "get",
    "deployment",
    "three",
    "-o",
    'jsonpath={.status.conditions[?(@.type=="ReplicaFailure")].reason}',
  ], (out) => out !== "");
  expect(onDeployment).toBe("FailedCreate");
});

test("a restricted namespace refuses a privileged Deployment's pods and the ReplicaSet says why (PodSecurity admission)", async () => {
  expect((await server.kubectl(["create", "namespace", "locked"])).code).toBe(0);
  expect((await server.kubectl(["label", "namespace", "locked", "pod-security.kubernetes.io/enforce=restricted"])).code).toBe(0);
  expect((await apply([deployment("locked", "root", 2, { securityContext: { privileged: true } })])).code).toBe(0);
  const condition = JSON.parse(await replicaFailure("locked", "root"));
  expect(condition.reason).toBe("FailedCreate");
  expect(condition.message).toContain('violates PodSecurity "restricted:latest": privileged');
  const pods = await server.kubectl(["-n", "locked", "get", "pods", "-o", "name"]);
  expect(pods.stdout.trim()).toBe("");
});

test("a StatefulSet whose pod PodSecurity refuses records kube's FailedCreate event (StatefulPodControl.recordPodEvent)", async () => {
  const set = {
    apiVersion: "apps/v1",
    kind: "StatefulSet",
    metadata: { name: "db", namespace: "locked" },
    spec: {
      serviceName: "db",
      replicas: 1,
      selector: { matchLabels: { app: "db" } },
      template: {
        metadata: { labels: { app: "db" } },
        spec: { containers: [{ name: "c", image: "nginx", securityContext: { privileged: true } }] },
      },
    },
  };
  expect((await apply([set])).code).toBe(0);
  const event = await kubectlUntil(server, [
    "-n",
    "locked",
    "get",
    "events",
    "--field-selector=reason=FailedCreate,involvedObject.kind=StatefulSet",
    "-o",
    "jsonpath={.items[0].message}",
  ], (out) => out !== "");
  expect(event).toStartWith(
    'create Pod db-0 in StatefulSet db failed error: pods "db-0" is forbidden: violates PodSecurity "restricted:latest"',
  );
});

test("a Job whose pods quota refuses records FailedCreate, and Jobs elsewhere still run (RealPodControl.createPods, per-object sync)", async () => {
  expect((await server.kubectl(["create", "namespace", "nojobs"])).code).toBe(0);
  expect((await server.kubectl(["-n", "nojobs", "create", "quota", "none", "--hard=pods=0"])).code).toBe(0);
  expect((await server.kubectl(["-n", "nojobs", "create", "job", "blocked", "--image=busybox"])).code).toBe(0);
  expect((await server.kubectl(["create", "job", "free", "--image=busybox"])).code).toBe(0);
  const event = await kubectlUntil(server, [
    "-n",
    "nojobs",
    "get",
    "events",
    "--field-selector=reason=FailedCreate,involvedObject.kind=Job",
    "-o",
    "jsonpath={.items[0].message}",
  ], (out) => out !== "");
  expect(event).toMatch(/^Error creating: pods "blocked-[a-z0-9]+" is forbidden: exceeded quota: none/);
  await kubectlUntil(server, ["get", "job", "free", "-o", "jsonpath={.status.succeeded}"], (out) => out === "1", 30_000);
});

test("a controller whose ClusterRoleBinding is removed makes nothing until it is bound again: its writes are authorized", async () => {
  const binding = "system:controller:replicaset-controller";
  expect((await server.kubectl(["delete", "clusterrolebinding", binding])).code).toBe(0);
  const denied = await server.kubectl([
    "auth",
    "can-i",
    "create",
    "pods",
    "--as=system:serviceaccount:kube-system:replicaset-controller",
    "-n",
    "unbound",
  ]);
  expect(denied.stdout.trim()).toBe("no");
  expect((await server.kubectl(["create", "namespace", "unbound"])).code).toBe(0);
  expect((await apply([deployment("unbound", "orphan", 1)])).code).toBe(0);
  await kubectlUntil(server, ["-n", "unbound", "get", "rs", "-l", "app=orphan", "-o", "name"], (out) => out.trim() !== "");
  // The Deployment controller (its own binding intact) made the ReplicaSet; the ReplicaSet controller may not create pods.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  expect((await server.kubectl(["-n", "unbound", "get", "pods", "-o", "name"])).stdout.trim()).toBe("");
  const rebind = [
    "create",
    "clusterrolebinding",
    binding,
    `--clusterrole=${binding}`,
    "--serviceaccount=kube-system:replicaset-controller",
  ];
  expect((await server.kubectl(rebind)).code).toBe(0);
  await kubectlUntil(server, ["-n", "unbound", "get", "pods", "-o", "name"], (out) => out.trim() !== "", 45_000);
});
