/**
 * ResourceQuota counts with kube's exact quantities (apimachinery resource.Quantity, quota.Add/LessThanOrEqual):
 * a requests.cpu: 300m quota admits 100m and then 200m, where float maths makes 0.1 + 0.2 exceed 0.3.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const pod = (name: string, cpu: string) =>
  JSON.stringify({
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: "cpu" },
    spec: { containers: [{ name: "c", image: "nginx", resources: { requests: { cpu }, limits: { cpu } } }] },
  });

test("a requests.cpu: 300m quota admits a 100m then a 200m pod, refuses 1m more, and shows used 300m", async () => {
  expect((await server.kubectl(["create", "namespace", "cpu"])).code).toBe(0);
  expect((await server.kubectl(["-n", "cpu", "create", "quota", "cpu", "--hard=requests.cpu=300m"])).code).toBe(0);
  expect((await server.kubectl(["create", "-f", "-"], { stdin: pod("small", "100m") })).code).toBe(0);
  const second = await server.kubectl(["create", "-f", "-"], { stdin: pod("larger", "200m") });
  expect(second.stderr).toBe("");
  expect(second.code).toBe(0);
  const used = await server.kubectl(["-n", "cpu", "get", "quota", "cpu", "-o", "jsonpath={.status.used.requests\\.cpu}"]);
  expect(used.stdout).toBe("300m");
  const third = await server.kubectl(["create", "-f", "-"], { stdin: pod("tiny", "1m") });
  expect(third.code).not.toBe(0);
  expect(third.stderr).toContain("exceeded quota: cpu, requested: requests.cpu=1m, used: requests.cpu=300m, limited: requests.cpu=300m");
});

test("quota usage in binary units stays exact and prints canonically: 1Gi + 512Mi is 1536Mi", async () => {
  expect((await server.kubectl(["-n", "cpu", "create", "quota", "mem", "--hard=requests.memory=2Gi"])).code).toBe(0);
  const withMemory = (name: string, memory: string) =>
    JSON.stringify({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name, namespace: "cpu" },
      spec: { containers: [{ name: "c", image: "nginx", resources: { requests: { memory, cpu: "0" } } }] },
    });
  // The cpu quota is full; these ask for no cpu.
  expect((await server.kubectl(["create", "-f", "-"], { stdin: withMemory("m1", "1Gi") })).stderr).toBe("");
  expect((await server.kubectl(["create", "-f", "-"], { stdin: withMemory("m2", "512Mi") })).stderr).toBe("");
  const used = await server.kubectl(["-n", "cpu", "get", "quota", "mem", "-o", "jsonpath={.status.used.requests\\.memory}"]);
  expect(used.stdout).toBe("1536Mi");
});
