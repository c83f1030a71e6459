/**
 * kubectl rollout pause/resume as kube 1.26's deployment controller reports them (checkPausedConditions): the
 * Progressing condition kubectl describe, get -o and wait --for=jsonpath read.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";

let server: TestServer;
beforeAll(async () => {
  // No nodes: the pods stay pending, so the rollout never completes and only pause and resume move the condition.
  server = await startServer();
  await kubectlOk(server, ["create", "deployment", "web", "--image=nginx:1"]);
});
afterAll(async () => {
  await server?.stop();
});

const PROGRESSING = `jsonpath={.status.conditions[?(@.type=="Progressing")]}`;

async function progressing(): Promise<{ status: string; reason: string; message: string }> {
  const { status, reason, message } = JSON.parse(await kubectlOk(server, ["get", "deployment", "web", "-o", PROGRESSING]));
  return { status, reason, message };
}

async function waitForReason(reason: string): Promise<void> {
  const waited = `--for=jsonpath={.status.conditions[?(@.type=="Progressing")].reason}=${reason}`;
  expect(await kubectlOk(server, ["wait", waited, "deployment/web", "--timeout=20s"])).toBe("deployment.apps/web condition met\n");
}

async function waitForGeneration(generation: number): Promise<void> {
  const waited = `--for=jsonpath={.status.observedGeneration}=${generation}`;
  expect(await kubectlOk(server, ["wait", waited, "deployment/web", "--timeout=20s"])).toBe("deployment.apps/web condition met\n");
}

test("checkPausedConditions: a paused Deployment's Progressing condition is Unknown DeploymentPaused", async () => {
  expect(await kubectlOk(server, ["rollout", "pause", "deployment/web"])).toBe("deployment.apps/web paused\n");
  await waitForReason("DeploymentPaused");
  expect(await progressing()).toEqual({ status: "Unknown", reason: "DeploymentPaused", message: "Deployment is paused" });
  expect(await kubectlOk(server, ["describe", "deployment", "web"])).toMatch(/Progressing\s+Unknown\s+DeploymentPaused\n/);
});

test("a template change while paused makes no ReplicaSet and leaves the condition paused", async () => {
  await kubectlOk(server, ["set", "image", "deployment/web", "nginx=nginx:2"]);
  await waitForGeneration(3);
  expect((await kubectlOk(server, ["get", "rs", "-o", "name"])).trim().split("\n")).toHaveLength(1);
  expect((await progressing()).reason).toBe("DeploymentPaused");
});

test("checkPausedConditions: resuming makes it Unknown DeploymentResumed while the rollout makes no progress", async () => {
  // Back to the running template, so the resume finds its ReplicaSet and nothing moves.
  await kubectlOk(server, ["set", "image", "deployment/web", "nginx=nginx:1"]);
  await waitForGeneration(4);
  expect(await kubectlOk(server, ["rollout", "resume", "deployment/web"])).toBe("deployment.apps/web resumed\n");
  await waitForReason("DeploymentResumed");
  expect(await progressing()).toEqual({ status: "Unknown", reason: "DeploymentResumed", message: "Deployment is resumed" });
});
