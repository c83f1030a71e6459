import { expect, test } from "bun:test";
import type { KubeObject } from "../api/types.ts";
import { checkAvailability, type DiscoveryProbe, withCondition } from "./availability.ts";
import type { ServiceLookup } from "./endpoint-resolver.ts";

const REMOTE: KubeObject = {
  apiVersion: "apiregistration.k8s.io/v1",
  kind: "APIService",
  metadata: { name: "v1.wardle.example.com" },
  spec: {
    group: "wardle.example.com",
    version: "v1",
    groupPriorityMinimum: 1000,
    versionPriority: 15,
    service: { namespace: "ns", name: "api", port: 443 },
  },
};
const SERVICE = { type: "ClusterIP", ports: [{ name: "https", port: 443 }] };
const READY = [{ addresses: [{ ip: "127.0.0.1" }], ports: [{ name: "https", port: 8443 }] }];

function lookupOf(service: unknown, subsets: unknown): ServiceLookup {
  return {
    service: () => (service === undefined ? undefined : ({ metadata: {}, spec: service } as KubeObject)),
    endpoints: () => (subsets === undefined ? undefined : ({ metadata: {}, subsets } as unknown as KubeObject)),
  };
}

const answering: DiscoveryProbe = () => Promise.resolve();

test("checkAvailability() passes a service-backed APIService whose backend answers discovery at its endpoint", async () => {
  const probed: string[] = [];
  const probe: DiscoveryProbe = (endpoint, path) => (probed.push(`${endpoint.host}:${endpoint.port}${path}`), Promise.resolve());
  expect(await checkAvailability(REMOTE, lookupOf(SERVICE, READY), probe)).toEqual({
    type: "Available",
    status: "True",
    reason: "Passed",
    message: "all checks passed",
  });
  expect(probed).toEqual(["127.0.0.1:8443/apis/wardle.example.com/v1"]);
});

test("checkAvailability() names kube's reason for each missing piece", async () => {
  const reasonOf = async (lookup: ServiceLookup) => {
    const condition = await checkAvailability(REMOTE, lookup, answering);
    return [condition.status, condition.reason, condition.message];
  };
  expect(await reasonOf(lookupOf(undefined, undefined))).toEqual(["False", "ServiceNotFound", 'service/api in "ns" is not present']);
  expect(await reasonOf(lookupOf({ ports: [{ port: 80 }] }, READY))).toEqual([
    "False",
    "ServicePortError",
    'service/api in "ns" is not listening on port 443',
  ]);
  expect(await reasonOf(lookupOf(SERVICE, undefined))).toEqual([
    "False",
    "EndpointsNotFound",
    'cannot find endpoints for service/api in "ns"',
  ]);
  expect(await reasonOf(lookupOf(SERVICE, [{ addresses: [], ports: [{ name: "https", port: 8443 }] }]))).toEqual([
    "False",
    "MissingEndpoints",
    'endpoints for service/api in "ns" have no addresses with port name "https"',
  ]);
});

test("checkAvailability() reports a backend that does not answer as FailedDiscoveryCheck with the URL", async () => {
  const refused: DiscoveryProbe = () => Promise.reject(new Error("connection refused"));
  const condition = await checkAvailability(REMOTE, lookupOf(SERVICE, READY), refused);
  expect(condition).toMatchObject({ status: "False", reason: "FailedDiscoveryCheck" });
  expect(condition.message).toBe("failing or missing response from https://127.0.0.1:8443/apis/wardle.example.com/v1: connection refused");
});

test("checkAvailability() calls an APIService without a service Local and always available", async () => {
  const local = { ...REMOTE, spec: { group: "apps", version: "v1", groupPriorityMinimum: 17800, versionPriority: 15 } };
  expect(await checkAvailability(local, lookupOf(undefined, undefined), answering)).toMatchObject({ status: "True", reason: "Local" });
});

test("withCondition() keeps lastTransitionTime while the status stays and moves it when the status changes", () => {
  const first = withCondition([], { type: "Available", status: "True", reason: "Passed" }, "t1");
  const same = withCondition(first, { type: "Available", status: "True", reason: "Passed", message: "again" }, "t2");
  expect(same).toEqual([{ type: "Available", status: "True", reason: "Passed", message: "again", lastTransitionTime: "t1" }]);
  const flipped = withCondition(same, { type: "Available", status: "False", reason: "FailedDiscoveryCheck" }, "t3");
  expect(flipped).toEqual([{ type: "Available", status: "False", reason: "FailedDiscoveryCheck", lastTransitionTime: "t3" }]);
});
