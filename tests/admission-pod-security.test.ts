/** End-to-end: PodSecurity levels by namespace labels, enforce vs warn, workload warnings, configured defaults and exemptions. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Json, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

const CONFIG = `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: PodSecurity
  configuration:
    apiVersion: pod-security.admission.config.k8s.io/v1
    kind: PodSecurityConfiguration
    defaults: {enforce: privileged, warn: baseline}
    exemptions: {namespaces: [exempt], usernames: [], runtimeClasses: []}
`;
/** What restricted reports for a bare pod; `kubectl run` names the container after the pod. */
const restrictedBarePod = (container: string) =>
  `allowPrivilegeEscalation != false (container "${container}" must set securityContext.allowPrivilegeEscalation=false), ` +
  `unrestricted capabilities (container "${container}" must set securityContext.capabilities.drop=["ALL"]), ` +
  `runAsNonRoot != true (pod or container "${container}" must set securityContext.runAsNonRoot=true), ` +
  `seccompProfile (pod or container "${container}" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`;

let server: TestServer;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "kubun-pod-security-"));
  await writeFile(join(dir, "admission.yaml"), CONFIG);
  server = await startServer([`--admission-control-config-file=${join(dir, "admission.yaml")}`]);
});
afterAll(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

async function namespace(name: string, labels: Record<string, string>): Promise<void> {
  expect((await sendJson(server, "POST", "/api/v1/namespaces", { metadata: { name, labels } })).status).toBe(201);
}
const hostNetworkPod = (name: string): Json => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name },
  spec: { hostNetwork: true, containers: [{ name: "c", image: "nginx" }] },
});

test("kubectl run is refused in an enforce=restricted namespace with kube's message", async () => {
  await namespace("strict", { "pod-security.kubernetes.io/enforce": "restricted" });
  const result = await server.kubectl(["run", "bad", "--image=nginx", "-n", "strict"]);
  expect(result.code).not.toBe(0);
  expect(result.stderr.trim()).toBe(
    `Error from server (Forbidden): pods "bad" is forbidden: violates PodSecurity "restricted:latest": ${restrictedBarePod("bad")}`,
  );
});

test("enforce=baseline with a version label refuses host namespaces and admits a plain pod", async () => {
  await namespace("base", { "pod-security.kubernetes.io/enforce": "baseline", "pod-security.kubernetes.io/enforce-version": "v1.24" });
  const refused = await server.kubectl(["create", "-n", "base", "-f", "-"], { stdin: JSON.stringify(hostNetworkPod("host")) });
  expect(refused.stderr).toContain('pods "host" is forbidden: violates PodSecurity "baseline:v1.24": host namespaces (hostNetwork=true)');
  const plain = await server.kubectl(["run", "plain", "--image=nginx", "-n", "base"]);
  expect(plain.code).toBe(0);
});

test("warn=restricted admits the pod and kubectl prints the warning", async () => {
  await namespace("warned", { "pod-security.kubernetes.io/warn": "restricted" });
  const result = await server.kubectl(["run", "loose", "--image=nginx", "-n", "warned"]);
  expect(result.code).toBe(0);
  expect(result.stderr).toContain(`Warning: would violate PodSecurity "restricted:latest": ${restrictedBarePod("loose")}`);
});

test("a Deployment whose template breaks the level gets a warning, not a denial", async () => {
  await namespace("workloads", { "pod-security.kubernetes.io/enforce": "baseline", "pod-security.kubernetes.io/warn": "baseline" });
  const deployment = {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "web" },
    spec: {
      selector: { matchLabels: { app: "web" } },
      template: { metadata: { labels: { app: "web" } }, spec: { hostPID: true, containers: [{ name: "c", image: "nginx" }] } },
    },
  };
  const result = await server.kubectl(["create", "-n", "workloads", "-f", "-"], { stdin: JSON.stringify(deployment) });
  expect(result.code).toBe(0);
  expect(result.stderr).toContain('Warning: would violate PodSecurity "baseline:latest": host namespaces (hostPID=true)');
});

test("the configured default warn level applies to unlabelled namespaces", async () => {
  await namespace("plain", {});
  const result = await server.kubectl(["create", "-n", "plain", "-f", "-"], { stdin: JSON.stringify(hostNetworkPod("host")) });
  expect(result.code).toBe(0);
  expect(result.stderr).toContain('Warning: would violate PodSecurity "baseline:latest": host namespaces (hostNetwork=true)');
});

test("an exempt namespace admits pods its labels would refuse", async () => {
  await namespace("exempt", { "pod-security.kubernetes.io/enforce": "restricted" });
  const result = await server.kubectl(["create", "-n", "exempt", "-f", "-"], { stdin: JSON.stringify(hostNetworkPod("host")) });
  expect(result.code).toBe(0);
  expect(result.stderr).not.toContain("PodSecurity");
});
