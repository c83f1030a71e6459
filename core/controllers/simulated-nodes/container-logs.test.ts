import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { logUnavailableReason, simulatedLog } from "./container-logs.ts";

const STARTED = "2026-01-02T03:04:05Z";

function pod(log: string | undefined, state: Record<string, unknown> = { running: { startedAt: STARTED } }): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "p", namespace: "default", annotations: log === undefined ? {} : { "kubun.io/simulated-log": log } },
    spec: { containers: [{ name: "app" }] },
    status: { containerStatuses: [{ name: "app", state }] },
  };
}

test("a simulated container without a configured log has an empty log", () => {
  expect(simulatedLog(pod(undefined), "app", { timestamps: false })).toBe("");
});

test("the configured lines are the log; tailLines keeps the last ones", () => {
  expect(simulatedLog(pod("one\ntwo\nthree"), "app", { timestamps: false })).toBe("one\ntwo\nthree\n");
  expect(simulatedLog(pod("one\ntwo\nthree"), "app", { timestamps: false, tailLines: 2 })).toBe("two\nthree\n");
  expect(simulatedLog(pod("one\ntwo"), "app", { timestamps: false, tailLines: 0 })).toBe("");
});

test("timestamps prefix each line with the kubelet's RFC 3339 nanosecond stamp", () => {
  expect(simulatedLog(pod("hello"), "app", { timestamps: true })).toBe("2026-01-02T03:04:05.000000000Z hello\n");
});

test("limitBytes cuts the answer; sinceSeconds past the lines' time leaves nothing", () => {
  expect(simulatedLog(pod("hello\nworld"), "app", { timestamps: false, limitBytes: 3 })).toBe("hel");
  expect(simulatedLog(pod("hello"), "app", { timestamps: false, sinceMs: Date.parse(STARTED) + 1000 })).toBe("");
});

test("validateContainerLogStatus: no previous instance, or a container still waiting, is refused with the kubelet's words", () => {
  expect(logUnavailableReason(pod("x"), "app", true)).toBe('previous terminated container "app" in pod "p" not found');
  expect(logUnavailableReason(pod("x", { waiting: { reason: "ContainerCreating" } }), "app", false)).toBe(
    'container "app" in pod "p" is waiting to start: ContainerCreating',
  );
  expect(logUnavailableReason(pod("x"), "app", false)).toBeUndefined();
});
