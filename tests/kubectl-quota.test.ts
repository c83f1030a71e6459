/**
 * A ResourceQuota's status as kubectl shows it: kube's ResourceQuotaController (syncResourceQuota) gives a new or
 * changed quota status.hard and status.used at once, before any further write in its namespace.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await kubectlOk(server, ["create", "namespace", "qa"]);
  await kubectlOk(server, ["create", "service", "clusterip", "one", "--tcp=80", "-n", "qa"]);
  await kubectlOk(server, ["create", "service", "nodeport", "two", "--tcp=80", "-n", "qa"]);
});
afterAll(async () => {
  await server?.stop();
});

async function waitFor(jsonpath: string): Promise<void> {
  expect(await kubectlOk(server, ["wait", `--for=jsonpath=${jsonpath}`, "quota/q", "-n", "qa", "--timeout=20s"])).toBe(
    "resourcequota/q condition met\n",
  );
}

test("syncResourceQuota: a new quota's status counts what the namespace already holds; kubectl describe quota shows it", async () => {
  await kubectlOk(server, ["create", "quota", "q", "-n", "qa", "--hard=services=5,services.nodeports=2,pods=3"]);
  await waitFor("{.status.used.services}=2");
  const status = JSON.parse(await kubectlOk(server, ["get", "quota", "q", "-n", "qa", "-o", "jsonpath={.status}"]));
  expect(status).toEqual({
    hard: { pods: "3", services: "5", "services.nodeports": "2" },
    used: { pods: "0", services: "2", "services.nodeports": "1" },
  });
  const rows = (await kubectlOk(server, ["describe", "quota", "q", "-n", "qa"])).trim().split("\n").slice(-3);
  expect(rows.map((row) => row.split(/\s+/))).toEqual([["pods", "0", "3"], ["services", "2", "5"], ["services.nodeports", "1", "2"]]);
});

test("syncResourceQuota: a changed spec.hard is observed and recounted without a write in the namespace", async () => {
  await kubectlOk(server, ["patch", "quota", "q", "-n", "qa", "--type=merge", "-p", '{"spec":{"hard":{"services":"1","pods":null}}}']);
  await waitFor("{.status.hard.services}=1");
  const status = JSON.parse(await kubectlOk(server, ["get", "quota", "q", "-n", "qa", "-o", "jsonpath={.status}"]));
  expect(status).toEqual({ hard: { services: "1", "services.nodeports": "2" }, used: { services: "2", "services.nodeports": "1" } });
  const refused = await server.kubectl(["create", "service", "clusterip", "three", "--tcp=80", "-n", "qa"]);
  expect(refused.stderr).toContain("exceeded quota: q, requested: services=1, used: services=2, limited: services=1");
});
