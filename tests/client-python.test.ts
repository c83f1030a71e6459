/**
 * The official Python client (Debian's python3-kubernetes 22.x) against kubun: it spells booleans as Python does
 * (watch=True, force=True, orphanDependents=True), which kube decodes with Convert_Slice_string_To_bool, and its
 * discovery calls use trailing-slash paths (/api/, /apis/apps/, /version/) that go-restful serves.
 * Each check runs tests/testdata/python_client_checks.py with the kubeconfig the harness wrote.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { resolve } from "node:path";
import { createNamespace, type Json } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

const PYTHON = "/usr/bin/python3";
const CHECKS = resolve(import.meta.dir, "testdata/python_client_checks.py");

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

/** Runs one check in its own namespace; fails with the script's stderr when it does not exit 0. */
async function runCheck(check: string): Promise<Json> {
  const namespace = `py-${check.replaceAll("_", "-")}`;
  await createNamespace(server, namespace);
  const child = Bun.spawn([PYTHON, CHECKS, server.kubeconfig, namespace, check], { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  expect({ check, code, stderr: code === 0 ? "" : stderr }).toEqual({ check, code: 0, stderr: "" });
  return JSON.parse(stdout);
}

test("VersionApi.get_code reads /version/", async () => {
  expect(await runCheck("version")).toMatchObject({ major: "1", minor: "26", gitVersion: expect.stringMatching(/^v1\.26\./) });
});

test("CoreApi, ApisApi, AppsApi and the per-version get_api_resources read discovery through trailing-slash paths", async () => {
  expect(await runCheck("discovery")).toEqual({
    coreVersions: ["v1"],
    hasApps: true,
    appsPreferred: "apps/v1",
    appsHasDeployments: true,
    coreHasConfigMaps: true,
  });
});

test("WellKnownApi and OpenidApi read the issuer discovery documents through trailing-slash paths that go-restful serves (OpenIDMetadataServer.Install)", async () => {
  expect(await runCheck("issuer_discovery")).toEqual({ issuer: "https://kubernetes.default.svc.cluster.local", keyUse: ["sig"] });
});

test("watch.Watch().stream sends watch=True and receives typed events, as kube's Convert_Slice_string_To_bool reads it", async () => {
  const result = await runCheck("typed_watch");
  expect(result.objectType).toBe("V1ConfigMap");
  const names = result.events.map(([, name]: [string, string]) => name);
  expect(names).toContain("before-watch");
  expect(result.events.at(-1)).toEqual(["ADDED", "during-watch"]);
});

test("the dynamic client's server_side_apply conflicts, and force_conflicts=True (force=True) takes the fields over", async () => {
  expect(await runCheck("dynamic_apply")).toEqual({
    first: "first",
    conflict: 409,
    forced: "second",
    managers: ["second"],
    listKind: "ConfigMapList",
  });
});

test("delete with orphan_dependents=True (orphanDependents=True) keeps the dependent and clears its owner reference", async () => {
  expect(await runCheck("orphan_delete")).toEqual({ dependent: "dependent", ownerReferences: null });
});

test("a missing object raises ApiException 404 carrying kube's NotFound Status", async () => {
  expect(await runCheck("error_shape")).toEqual({
    status: 404,
    reason: "NotFound",
    message: 'configmaps "missing" not found',
    details: { name: "missing", kind: "configmaps" },
  });
});

test("Go zero values kube's encoding always writes reach the typed models (kube-openapi's zero defaults, mustEnforceDefault)", async () => {
  expect(await runCheck("go_zero_values")).toEqual({
    deploymentStatus: "V1DeploymentStatus",
    templateMetadata: { creationTimestamp: null, labels: { app: "zero" } },
    loadBalancer: "V1LoadBalancerStatus",
    daemonSet: ["int", "int", "int"],
    budget: ["int", "int", "int", "int"],
    event: ["", "", null],
  });
});

test("the leaderelection helper (ConfigMapLock) acquires the lock and records itself as holder", async () => {
  expect(await runCheck("leader_election")).toEqual({ holder: true });
});
