import { expect, test } from "bun:test";
import type { KubeObject } from "../api/types.ts";
import { endpointsLabels, findPort, lastChangeTriggerTime, podIPv4, selectsPods, shouldPodBeInEndpoints } from "./_service-endpoints.ts";
import { testPod, testService } from "./_service-fixtures.ts";

test("findPort() resolves a named targetPort among container ports of the same protocol, a number as is", () => {
  const pod = testPod("a", { ports: [{ name: "web", containerPort: 8080 }, { name: "dns", containerPort: 53, protocol: "UDP" }] });
  expect(findPort(pod, { port: 80, targetPort: "web" })).toBe(8080);
  expect(findPort(pod, { port: 53, targetPort: "dns" })).toBeUndefined();
  expect(findPort(pod, { port: 53, targetPort: "dns", protocol: "UDP" })).toBe(53);
  expect(findPort(pod, { port: 80, targetPort: 9090 })).toBe(9090);
  expect(findPort(pod, { port: 80 })).toBe(80);
});

test("selectsPods() is false for ExternalName Services and Services without (or with an empty) selector", () => {
  expect(selectsPods(testService("s", { selector: { app: "x" } }))).toBe(true);
  expect(selectsPods(testService("s", { selector: {} }))).toBe(false);
  expect(selectsPods(testService("s", { selector: { app: "x" }, type: "ExternalName" }))).toBe(false);
  expect(selectsPods({ metadata: { name: "s" }, spec: {} })).toBe(false);
});

test("shouldPodBeInEndpoints() drops finished Pods, Pods without an IP, and terminating ones unless asked", () => {
  const terminating: KubeObject = {
    ...testPod("t", {}),
    metadata: { ...testPod("t", {}).metadata, deletionTimestamp: "2024-01-01T00:00:00Z" },
  };
  expect(shouldPodBeInEndpoints(testPod("a", {}), false)).toBe(true);
  expect(shouldPodBeInEndpoints(testPod("a", { phase: "Succeeded" }), false)).toBe(false);
  expect(shouldPodBeInEndpoints(testPod("a", { ip: "" }), false)).toBe(false);
  expect(shouldPodBeInEndpoints(terminating, false)).toBe(false);
  expect(shouldPodBeInEndpoints(terminating, true)).toBe(true);
});

test("podIPv4() prefers the IPv4 entry of podIPs", () => {
  const pod = testPod("a", { ip: "fd00::1" });
  (pod.status as { podIPs: { ip: string }[] }).podIPs = [{ ip: "fd00::1" }, { ip: "10.1.0.9" }];
  expect(podIPv4(pod)).toBe("10.1.0.9");
});

test("endpointsLabels() copies the Service's labels and marks headless Services", () => {
  expect(endpointsLabels(testService("s", { labels: { app: "x" } }))).toEqual({ app: "x" });
  expect(endpointsLabels(testService("s", { clusterIP: "None" }))).toEqual({ "service.kubernetes.io/headless": "" });
});

test("lastChangeTriggerTime() is the newest Pod readiness change or Service creation", () => {
  const service = testService("s", { created: "2024-01-01T00:00:00Z" });
  expect(lastChangeTriggerTime(service, [])).toBe("2024-01-01T00:00:00Z");
  expect(
    lastChangeTriggerTime(service, [
      testPod("a", { readySince: "2024-02-01T00:00:00Z" }),
      testPod("b", { readySince: "2024-01-15T00:00:00Z" }),
    ]),
  ).toBe("2024-02-01T00:00:00Z");
});
