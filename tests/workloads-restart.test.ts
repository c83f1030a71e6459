import { afterAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlUntil } from "./_workloads.ts";

let server: TestServer | undefined;
afterAll(async () => {
  await server?.stop();
});

test("a rollout interrupted by kill -9 completes after a restart with no duplicate pods", async () => {
  server = await startServer(["--simulated-nodes=3"]);
  expect((await server.kubectl(["create", "deployment", "web", "--image=nginx", "--replicas=6"])).code).toBe(0);
  expect((await server.kubectl(["rollout", "status", "deployment/web", "--timeout=30s"])).code).toBe(0);
  expect((await server.kubectl(["set", "image", "deployment/web", "nginx=nginx:1.25"])).code).toBe(0);
  await kubectlUntil(server, ["get", "rs", "-l", "app=web", "-o", "name"], (out) => out.trim().split("\n").length === 2, 10_000);
  const dataDir = server.dataDir;
  await server.kill9();
  server = await startServer(["--simulated-nodes=3"], { dataDir });
  const status = await server.kubectl(["rollout", "status", "deployment/web", "--timeout=40s"]);
  expect(status.stdout).toContain('deployment "web" successfully rolled out');
  const pods = await kubectlUntil(server, [
    "get",
    "pods",
    "-l",
    "app=web",
    "-o",
    'jsonpath={range .items[*]}{.spec.containers[0].image}{"\\n"}{end}',
  ], (out) => {
    const images = out.trim().split("\n");
    return images.length === 6 && images.every((i) => i === "nginx:1.25");
  });
  expect(pods.trim().split("\n")).toHaveLength(6);
  const sets = await server.kubectl(["get", "rs", "-l", "app=web", "-o", 'jsonpath={range .items[*]}{.spec.replicas}{"\\n"}{end}']);
  expect(sets.stdout.trim().split("\n").sort()).toEqual(["0", "6"]);
});
