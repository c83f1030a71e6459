import { expect, test } from "bun:test";
import {
  endpointSlicePrinter,
  endpointsPrinter,
  ingressClassPrinter,
  ingressPrinter,
  networkPolicyPrinter,
  servicePrinter,
} from "./network.ts";
import { columnNames, NOW, object } from "./_test-fixtures.ts";

test("network columns match kube's", () => {
  expect(columnNames(servicePrinter.columns)).toEqual(["Name", "Type", "Cluster-IP", "External-IP", "Port(s)", "Age", "Selector*"]);
  expect(columnNames(endpointsPrinter.columns)).toEqual(["Name", "Endpoints", "Age"]);
  expect(columnNames(endpointSlicePrinter.columns)).toEqual(["Name", "AddressType", "Ports", "Endpoints", "Age"]);
  expect(columnNames(ingressPrinter.columns)).toEqual(["Name", "Class", "Hosts", "Address", "Ports", "Age"]);
  expect(columnNames(ingressClassPrinter.columns)).toEqual(["Name", "Controller", "Parameters", "Age"]);
  expect(columnNames(networkPolicyPrinter.columns)).toEqual(["Name", "Pod-Selector", "Age"]);
});

const service = (spec: object, status: object = {}) => object("svc", { spec, status });

const serviceCases: [string, ReturnType<typeof object>, unknown[]][] = [
  [
    "a ClusterIP service shows <none> for external IPs and port/protocol",
    service({
      type: "ClusterIP",
      clusterIP: "10.96.0.10",
      clusterIPs: ["10.96.0.10"],
      ports: [{ port: 53, protocol: "UDP" }, { port: 53, protocol: "TCP" }],
      selector: { k8s: "dns" },
    }),
    ["svc", "ClusterIP", "10.96.0.10", "<none>", "53/UDP,53/TCP", "5m", "k8s=dns"],
  ],
  [
    "a NodePort service shows port:nodePort and its external IPs",
    service({
      type: "NodePort",
      clusterIPs: ["10.96.1.1"],
      externalIPs: ["192.0.2.1"],
      ports: [{ port: 80, nodePort: 30080, protocol: "TCP" }],
    }),
    ["svc", "NodePort", "10.96.1.1", "192.0.2.1", "80:30080/TCP", "5m", "<none>"],
  ],
  [
    "a LoadBalancer service without ingress is <pending>",
    service({ type: "LoadBalancer", clusterIPs: ["10.96.1.2"], ports: [{ port: 443, nodePort: 31443, protocol: "TCP" }] }),
    ["svc", "LoadBalancer", "10.96.1.2", "<pending>", "443:31443/TCP", "5m", "<none>"],
  ],
  [
    "a LoadBalancer service lists ingress points, unclipped, then external IPs",
    service({ type: "LoadBalancer", clusterIPs: ["10.96.1.3"], externalIPs: ["192.0.2.9"] }, {
      loadBalancer: { ingress: [{ hostname: "a-very-long-name.elb.example.com" }] },
    }),
    ["svc", "LoadBalancer", "10.96.1.3", "a-very-long-name.elb.example.com,192.0.2.9", "<none>", "5m", "<none>"],
  ],
  [
    "an ExternalName service shows its external name and no cluster IP",
    service({ type: "ExternalName", externalName: "db.example.com" }),
    ["svc", "ExternalName", "<none>", "db.example.com", "<none>", "5m", "<none>"],
  ],
  ["a headless service shows None", service({ type: "ClusterIP", clusterIP: "None" }), [
    "svc",
    "ClusterIP",
    "None",
    "<none>",
    "<none>",
    "5m",
    "<none>",
  ]],
];

for (const [behaviour, obj, expected] of serviceCases) {
  test(behaviour, () => {
    expect(servicePrinter.cells(obj, NOW)).toEqual(expected);
  });
}

test("endpoints list up to three address:port pairs and count the rest", () => {
  const addresses = ["10.0.0.1", "10.0.0.2"].map((ip) => ({ ip }));
  const endpoints = object("web", { subsets: [{ addresses, ports: [{ port: 80 }, { port: 443 }] }] });
  expect(endpointsPrinter.cells(endpoints, NOW)).toEqual(["web", "10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 1 more...", "5m"]);
  expect(endpointsPrinter.cells(object("empty"), NOW)[1]).toBe("<none>");
  expect(endpointsPrinter.cells(object("headless", { subsets: [{ addresses }] }), NOW)[1]).toBe("10.0.0.1,10.0.0.2");
});

test("endpoint slices show address type, ports and addresses, <unset> when empty", () => {
  const slice = object("web-abc", {
    addressType: "IPv4",
    ports: [{ port: 80 }, { name: "metrics" }, {}],
    endpoints: [{ addresses: ["10.0.0.1"] }],
  });
  expect(endpointSlicePrinter.cells(slice, NOW)).toEqual(["web-abc", "IPv4", "80,metrics,*", "10.0.0.1", "5m"]);
  expect(endpointSlicePrinter.cells(object("bare", { addressType: "IPv6" }), NOW)).toEqual(["bare", "IPv6", "<unset>", "<unset>", "5m"]);
});

test("ingresses show class, hosts, load balancer address and ports", () => {
  const ingress = object("shop", {
    spec: {
      ingressClassName: "nginx",
      rules: [{ host: "a.example" }, { host: "b.example" }, {}, { host: "c.example" }, { host: "d.example" }],
      tls: [{}],
    },
    status: { loadBalancer: { ingress: [{ ip: "203.0.113.5" }] } },
  });
  expect(ingressPrinter.cells(ingress, NOW)).toEqual([
    "shop",
    "nginx",
    "a.example,b.example,c.example + 2 more...",
    "203.0.113.5",
    "80, 443",
    "5m",
  ]);
  expect(ingressPrinter.cells(object("any", { spec: { rules: [{}] } }), NOW)).toEqual(["any", "<none>", "*", "", "80", "5m"]);
});

test("ingress classes show controller and kind.group/name parameters", () => {
  const withParameters = object("nginx", {
    spec: { controller: "k8s.io/ingress-nginx", parameters: { apiGroup: "k8s.example.com", kind: "IngressParameters", name: "p" } },
  });
  expect(ingressClassPrinter.cells(withParameters, NOW)).toEqual([
    "nginx",
    "k8s.io/ingress-nginx",
    "IngressParameters.k8s.example.com/p",
    "5m",
  ]);
  expect(ingressClassPrinter.cells(object("plain", { spec: { controller: "c" } }), NOW)[2]).toBe("<none>");
});

test("network policies show their pod selector, <none> when it selects every pod", () => {
  expect(networkPolicyPrinter.cells(object("deny", { spec: { podSelector: {} } }), NOW)).toEqual(["deny", "<none>", "5m"]);
  expect(networkPolicyPrinter.cells(object("web", { spec: { podSelector: { matchLabels: { app: "web" } } } }), NOW)[1]).toBe("app=web");
});
