/** kube's defaulting seen through kubectl: defaults are stored and shown by `kubectl get -o yaml`. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { parse, stringify } from "yaml";
import { createNamespace } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";

const NAMESPACE = "defaults";
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NAMESPACE);
});
afterAll(async () => {
  await server?.stop();
});

// deno-lint-ignore no-explicit-any
async function getYaml(...args: string[]): Promise<any> {
  return parse(await kubectlOk(server, ["get", ...args, "-o", "yaml"]));
}

test("kubectl create deployment shows kube's strategy, history, deadline and pod template defaults", async () => {
  await kubectlOk(server, ["create", "deployment", "web", "--image=nginx", "-n", NAMESPACE]);
  const deployment = await getYaml("deployment", "web", "-n", NAMESPACE);
  expect(deployment.spec).toMatchObject({
    replicas: 1,
    revisionHistoryLimit: 10,
    progressDeadlineSeconds: 600,
    strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: "25%", maxUnavailable: "25%" } },
  });
  expect(deployment.spec.template.spec).toMatchObject({
    restartPolicy: "Always",
    dnsPolicy: "ClusterFirst",
    schedulerName: "default-scheduler",
    securityContext: {},
    terminationGracePeriodSeconds: 30,
  });
  expect(deployment.spec.template.spec.containers).toEqual([{
    name: "nginx",
    image: "nginx",
    imagePullPolicy: "Always",
    resources: {},
    terminationMessagePath: "/dev/termination-log",
    terminationMessagePolicy: "File",
  }]);
});

test("kubectl run makes a pod with kube's pod defaults", async () => {
  await kubectlOk(server, ["run", "p", "--image=nginx:1.25", "-n", NAMESPACE]);
  const pod = await getYaml("pod", "p", "-n", NAMESPACE);
  expect(pod.spec).toMatchObject({
    restartPolicy: "Always",
    dnsPolicy: "ClusterFirst",
    terminationGracePeriodSeconds: 30,
    enableServiceLinks: true,
    containers: [{ name: "p", image: "nginx:1.25", imagePullPolicy: "IfNotPresent", terminationMessagePath: "/dev/termination-log" }],
  });
});

test("a Service with only a port gets targetPort, protocol TCP, type ClusterIP and sessionAffinity None", async () => {
  const service = {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "svc", namespace: NAMESPACE },
    spec: { selector: { app: "web" }, ports: [{ port: 80 }] },
  };
  await kubectlOk(server, ["create", "-f", "-"], stringify(service));
  const stored = await getYaml("service", "svc", "-n", NAMESPACE);
  expect(stored.spec).toMatchObject({
    type: "ClusterIP",
    sessionAffinity: "None",
    internalTrafficPolicy: "Cluster",
    ports: [{ port: 80, targetPort: 80, protocol: "TCP" }],
  });
});

test("a Secret without a type is Opaque", async () => {
  const secret = { apiVersion: "v1", kind: "Secret", metadata: { name: "plain", namespace: NAMESPACE }, data: { k: btoa("v") } };
  await kubectlOk(server, ["create", "-f", "-"], stringify(secret));
  expect((await getYaml("secret", "plain", "-n", NAMESPACE)).type).toBe("Opaque");
});

test("a mutating webhook configuration shows the webhook defaults of spec 2.9", async () => {
  const configuration = {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "MutatingWebhookConfiguration",
    metadata: { name: "defaults.example.com" },
    webhooks: [{
      name: "pods.defaults.example.com",
      clientConfig: { service: { namespace: NAMESPACE, name: "hook" } },
      rules: [{ operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"] }],
      sideEffects: "None",
      admissionReviewVersions: ["v1"],
    }],
  };
  await kubectlOk(server, ["create", "-f", "-"], stringify(configuration));
  const [webhook] = (await getYaml("mutatingwebhookconfiguration", "defaults.example.com")).webhooks;
  expect(webhook).toMatchObject({
    clientConfig: { service: { port: 443 } },
    failurePolicy: "Fail",
    matchPolicy: "Equivalent",
    namespaceSelector: {},
    objectSelector: {},
    reinvocationPolicy: "Never",
    timeoutSeconds: 10,
    rules: [{ scope: "*" }],
  });
});

test("defaults also apply to objects changed by a patch", async () => {
  await kubectlOk(server, ["create", "deployment", "patched", "--image=nginx:1.25", "-n", NAMESPACE]);
  const patch = JSON.stringify({
    spec: {
      strategy: { type: "Recreate", rollingUpdate: null },
      template: { spec: { containers: [{ name: "nginx", image: "nginx:1.25", ports: [{ containerPort: 8080 }] }] } },
    },
  });
  await kubectlOk(server, ["patch", "deployment", "patched", "-n", NAMESPACE, "--type=merge", "-p", patch]);
  const deployment = await getYaml("deployment", "patched", "-n", NAMESPACE);
  expect(deployment.spec.strategy).toEqual({ type: "Recreate" });
  expect(deployment.spec.template.spec.containers[0]).toMatchObject({
    ports: [{ containerPort: 8080, protocol: "TCP" }],
    imagePullPolicy: "IfNotPresent",
  });
});
