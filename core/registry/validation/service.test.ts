import { expect, test } from "bun:test";
import { messages, object } from "./_testing.ts";
import { validateService, validateServiceUpdate } from "./service.ts";

const service = (spec: Record<string, unknown>) => object({ spec });

test("validateService() applies kube's type, port and affinity rules", () => {
  const cases: [Record<string, unknown>, string[]][] = [
    [{ type: "Weird", ports: [{ port: 80 }] }, [
      'spec.type: Unsupported value: "Weird": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
    ]],
    [{ type: "ClusterIP" }, ["spec.ports: Required value"]],
    [{ type: "ClusterIP", ports: [{ port: 0 }] }, ["spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive"]],
    [{ ports: [{ port: 80 }, { name: "b", port: 81 }] }, ["spec.ports[0].name: Required value"]],
    [{ ports: [{ name: "a", port: 80, protocol: "HTTP" }] }, [
      'spec.ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
    ]],
    [{ type: "ClusterIP", ports: [{ port: 80, nodePort: 30000 }] }, [
      "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
    ]],
    [{ type: "NodePort", ports: [{ port: 80, nodePort: 70000 }] }, [
      "spec.ports[0].nodePort: Invalid value: 70000: must be between 1 and 65535, inclusive",
    ]],
    [{ type: "ExternalName" }, ["spec.externalName: Required value"]],
    [{ ports: [{ port: 80 }], sessionAffinity: "Sticky" }, [
      'spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"',
    ]],
    [
      { ports: [{ port: 80 }], sessionAffinity: "ClientIP", sessionAffinityConfig: { clientIP: { timeoutSeconds: 90000 } } },
      ["spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 90000: must be greater than 0 and less than 86400"],
    ],
    [{ ports: [{ port: 80, targetPort: 0 }] }, ["spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive"]],
  ];
  for (const [spec, expected] of cases) expect(messages(validateService(service(spec)))).toEqual(expected);
});

test("validateService() accepts headless services without ports and ExternalName services", () => {
  expect(validateService(service({ clusterIP: "None" }))).toEqual([]);
  expect(validateService(service({ type: "ExternalName", externalName: "db.example.com." }))).toEqual([]);
});

test("validateServiceUpdate() refuses a changed cluster IP but allows keeping or omitting it", () => {
  const old = service({ ports: [{ port: 80 }], clusterIP: "10.0.0.5", clusterIPs: ["10.0.0.5"] });
  expect(messages(validateServiceUpdate(service({ ports: [{ port: 80 }], clusterIP: "10.0.0.6" }), old))).toEqual([
    'spec.clusterIPs[0]: Invalid value: []string{"10.0.0.6"}: may not change once set',
  ]);
  expect(validateServiceUpdate(service({ ports: [{ port: 81 }] }), old)).toEqual([]);
  expect(validateServiceUpdate(service({ type: "ExternalName", externalName: "x.example.com" }), old)).toEqual([]);
});
