import { expect, test } from "bun:test";
import { messages } from "./_testing.ts";
import { validateAPIService } from "./apiservice.ts";

const apiService = (name: string, spec: Record<string, unknown>) => ({
  metadata: { name },
  spec: { group: "example.com", version: "v1", groupPriorityMinimum: 1000, versionPriority: 15, ...spec },
});

test("validateAPIService() accepts a remote and a local APIService", () => {
  expect(validateAPIService(apiService("v1.example.com", { service: { namespace: "ns", name: "svc", port: 443 } }))).toEqual([]);
  expect(validateAPIService({ metadata: { name: "v1." }, spec: { version: "v1", groupPriorityMinimum: 18000, versionPriority: 1 } }))
    .toEqual([]);
});

test("validateAPIService() enforces the seed's name, priority and port rules", () => {
  const cases: [string, Record<string, unknown>, string[]][] = [
    ["v2.example.com", {}, ['metadata.name: Invalid value: "v2.example.com": must be `spec.version+"."+spec.group`: "v1.example.com"']],
    ["v1.example.com", { versionPriority: 0 }, ["spec.versionPriority: Invalid value: 0: must be positive and less than 1000"]],
    ["v1.example.com", { groupPriorityMinimum: 20001 }, [
      "spec.groupPriorityMinimum: Invalid value: 20001: must be positive and less than 20000",
    ]],
    ["v1.example.com", { service: { namespace: "ns", name: "svc", port: 70000 } }, [
      "spec.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive",
    ]],
    ["v1.example.com", { service: { port: 443 } }, ["spec.service.namespace: Required value", "spec.service.name: Required value"]],
    ["v1.", { group: "" }, []],
    ["v2.", { group: "", version: "v2" }, ["spec.group: Required value: only v1 may have an empty group and it better be legacy kube"]],
  ];
  for (const [name, spec, expected] of cases) expect(messages(validateAPIService(apiService(name, spec)))).toEqual(expected);
});
