import { expect, test } from "bun:test";
import { endpointSubsets } from "./endpoint-subsets.ts";
import { testPod, testService } from "./_service-fixtures.ts";

const web = testService("web", { selector: { app: "web" }, ports: [{ name: "http", port: 80, targetPort: "http", protocol: "TCP" }] });

test("endpointSubsets() puts ready Pods in addresses and not-ready ones in notReadyAddresses, sorted by IP", () => {
  const ports = [{ name: "http", containerPort: 8080 }];
  const subsets = endpointSubsets(web, [
    testPod("b", { ip: "10.1.0.10", ports, node: "n1" }),
    testPod("a", { ip: "10.1.0.9", ports }),
    testPod("c", { ip: "10.1.0.2", ports, ready: false }),
  ]);
  expect(subsets).toEqual([{
    addresses: [
      { ip: "10.1.0.9", targetRef: { kind: "Pod", namespace: "default", name: "a", uid: "uid-a" } },
      { ip: "10.1.0.10", nodeName: "n1", targetRef: { kind: "Pod", namespace: "default", name: "b", uid: "uid-b" } },
    ],
    notReadyAddresses: [{ ip: "10.1.0.2", targetRef: { kind: "Pod", namespace: "default", name: "c", uid: "uid-c" } }],
    ports: [{ name: "http", port: 8080, protocol: "TCP" }],
  }]);
});

test("endpointSubsets() groups Pods by the port a named targetPort resolves to and skips Pods without it", () => {
  const subsets = endpointSubsets(web, [
    testPod("a", { ip: "10.1.0.1", ports: [{ name: "http", containerPort: 8080 }] }),
    testPod("b", { ip: "10.1.0.2", ports: [{ name: "http", containerPort: 9090 }] }),
    testPod("c", { ip: "10.1.0.3", ports: [{ name: "other", containerPort: 8080 }] }),
  ]);
  expect(subsets.map((s) => ({ ips: s.addresses?.map((a) => a.ip), ports: s.ports }))).toEqual([
    { ips: ["10.1.0.1"], ports: [{ name: "http", port: 8080, protocol: "TCP" }] },
    { ips: ["10.1.0.2"], ports: [{ name: "http", port: 9090, protocol: "TCP" }] },
  ]);
});

test("endpointSubsets() lists not-ready Pods in addresses when the Service publishes not-ready addresses", () => {
  const service = testService("web", { selector: { app: "web" }, ports: [{ port: 80, targetPort: 8080 }], publishNotReadyAddresses: true });
  const subsets = endpointSubsets(service, [testPod("a", { ready: false })]);
  expect(subsets).toEqual([{
    addresses: [{ ip: "10.1.0.1", targetRef: { kind: "Pod", namespace: "default", name: "a", uid: "uid-a" } }],
    ports: [{ port: 8080, protocol: "TCP" }],
  }]);
});

test("endpointSubsets() gives a headless Service without ports port-less addresses, a normal one none", () => {
  const headless = testService("db", { selector: { app: "web" }, clusterIP: "None" });
  expect(endpointSubsets(headless, [testPod("a", {})])).toEqual([{
    addresses: [{ ip: "10.1.0.1", targetRef: { kind: "Pod", namespace: "default", name: "a", uid: "uid-a" } }],
  }]);
  expect(endpointSubsets(testService("db", { selector: { app: "web" } }), [testPod("a", {})])).toEqual([]);
});
