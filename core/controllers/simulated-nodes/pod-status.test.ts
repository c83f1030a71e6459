import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { withEphemeralContainersStarted } from "./pod-status.ts";

const pod = (ephemeral: string[], statuses: string[]): KubeObject => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: "p" },
  spec: { containers: [{ name: "app" }], ephemeralContainers: ephemeral.map((name) => ({ name, image: "busybox" })) },
  status: { phase: "Running", ephemeralContainerStatuses: statuses.map((name) => ({ name })) },
});

test("a simulated kubelet starts each ephemeral container it has no status for, never ready", () => {
  const status = withEphemeralContainersStarted(pod(["a", "b"], ["a"]), "2026-01-01T00:00:00Z");
  expect(status?.ephemeralContainerStatuses).toEqual([
    { name: "a" },
    expect.objectContaining({
      name: "b",
      image: "busybox",
      ready: false,
      started: true,
      state: { running: { startedAt: "2026-01-01T00:00:00Z" } },
    }),
  ]);
});

test("nothing to start is no status write", () => {
  expect(withEphemeralContainersStarted(pod(["a"], ["a"]), "2026-01-01T00:00:00Z")).toBeUndefined();
});
