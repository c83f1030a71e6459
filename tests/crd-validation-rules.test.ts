/**
 * CRD validation rules (x-kubernetes-validations, CEL) end to end with kubectl, on Gateway API's standard channel
 * CRDs as the project ships them (tests/testdata/gateway-api): kube's cel.Validator messages and field paths for
 * creates, updates, patches, server-side apply and status writes, and ValidateCustomResourceDefinition's
 * refusal of rules that do not compile or cost too much.
 */
import { exampleCrd } from "./_crd.ts";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { resolve } from "node:path";
import { createNamespace } from "./_api.ts";
import { kubectlOk } from "./_kubectl.ts";
import { startServer, type TestServer } from "./harness.ts";

const NS = "gateways";
const GATEWAY_API = resolve(import.meta.dir, "testdata/gateway-api");
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NS);
  await kubectlOk(server, [
    "apply",
    "-f",
    `${GATEWAY_API}/gateways.yaml`,
    "-f",
    `${GATEWAY_API}/gatewayclasses.yaml`,
    "-f",
    `${GATEWAY_API}/httproutes-parentrefs.yaml`,
  ]);
  await kubectlOk(server, [
    "wait",
    "--for",
    "condition=established",
    "--timeout=10s",
    "crd/gateways.gateway.networking.k8s.io",
    "crd/gatewayclasses.gateway.networking.k8s.io",
    "crd/httproutes.gateway.networking.k8s.io",
  ]);
});
afterAll(() => server.stop());

function gateway(name: string, listeners: unknown[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    apiVersion: "gateway.networking.k8s.io/v1beta1",
    kind: "Gateway",
    metadata: { name, namespace: NS },
    spec: { gatewayClassName: "example", listeners, ...extra },
  });
}

const HTTP = { name: "http", protocol: "HTTP", port: 80 };
const HTTPS = { name: "https", protocol: "HTTPS", port: 443, hostname: "example.com", tls: { certificateRefs: [{ name: "cert" }] } };

test("Gateway API's valid example Gateways are accepted (cel.Validator: every rule true)", async () => {
  await kubectlOk(server, ["apply", "-f", "-"], gateway("web", [HTTP, HTTPS]));
  await kubectlOk(
    server,
    ["apply", "-f", "-"],
    gateway("addressed", [HTTP], { addresses: [{ type: "Hostname", value: "lb.example.com" }] }),
  );
  const listeners = JSON.parse(await kubectlOk(server, ["-n", NS, "get", "gateway", "web", "-o", "json"])).spec.listeners;
  expect(listeners[1].tls).toEqual({ certificateRefs: [{ group: "", kind: "Secret", name: "cert" }], mode: "Terminate" });
});

test("a Gateway breaking list rules is refused with each rule's message at the list's path (422, validateExpressions)", async () => {
  const refused = await server.kubectl(["create", "-f", "-"], {
    stdin: gateway("bad", [{ name: "tcp", protocol: "TCP", port: 80, hostname: "example.com" }, {
      name: "tcp",
      protocol: "HTTPS",
      port: 443,
    }]),
  });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain('The Gateway "bad" is invalid:');
  expect(refused.stderr).toContain(`spec.listeners: Invalid value: "array": tls must be specified for protocols ['HTTPS', 'TLS']`);
  expect(refused.stderr).toContain(`spec.listeners: Invalid value: "array": hostname must not be specified for protocols ['TCP', 'UDP']`);
  expect(refused.stderr).toContain('spec.listeners[1]: Duplicate value: map[string]interface {}{"name":"tcp"}');
  expect((await server.kubectl(["-n", NS, "get", "gateway", "bad"])).code).toBe(1);
});

test("rules on list items and on nested objects report the item's path (validateArray / validateMap)", async () => {
  const refused = await server.kubectl(["create", "-f", "-"], {
    stdin: gateway("items", [{ ...HTTPS, tls: { mode: "Terminate", certificateRefs: [] } }], {
      addresses: [{ type: "Hostname", value: "Not_A_Host" }],
    }),
  });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(
    'spec.addresses[0]: Invalid value: "object": Hostname value must only contain valid characters (matching ^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$)',
  );
  expect(refused.stderr).toContain(
    'spec.listeners[0].tls: Invalid value: "object": certificateRefs must be specified when TLSModeType is Terminate',
  );
});

test("updates, merge patches and server-side apply run the rules as creates do (customResourceStrategy.ValidateUpdate)", async () => {
  const patched = await server.kubectl([
    "-n",
    NS,
    "patch",
    "gateway",
    "web",
    "--type=merge",
    "-p",
    JSON.stringify({ spec: { addresses: [{ type: "IPAddress", value: "10.0.0.1" }, { type: "IPAddress", value: "10.0.0.1" }] } }),
  ]);
  expect(patched.code).toBe(1);
  expect(patched.stderr).toContain('spec.addresses: Invalid value: "array": IPAddress values must be unique');
  const applied = await server.kubectl(["apply", "--server-side", "--force-conflicts", "-f", "-"], {
    stdin: gateway("web", [HTTP, HTTPS, { name: "secure", protocol: "TLS", port: 8443 }]),
  });
  expect(applied.code).toBe(1);
  expect(applied.stderr).toContain(`spec.listeners: Invalid value: "array": tls must be specified for protocols ['HTTPS', 'TLS']`);
  const replaced = await server.kubectl(["replace", "-f", "-"], {
    stdin: JSON.stringify({
      ...JSON.parse(await kubectlOk(server, ["-n", NS, "get", "gateway", "web", "-o", "json"])),
      spec: JSON.parse(gateway("web", [HTTP, { ...HTTP, name: "again" }])).spec,
    }),
  });
  expect(replaced.code).toBe(1);
  expect(replaced.stderr).toContain(
    'spec.listeners: Invalid value: "array": Combination of port, protocol and hostname must be unique for each listener',
  );
});

test("status writes run the status rules (statusStrategy.ValidateUpdate)", async () => {
  const status = JSON.stringify({ status: { addresses: [{ type: "Hostname", value: "Bad_Host" }] } });
  const refused = await server.kubectl(["-n", NS, "patch", "gateway", "web", "--subresource=status", "--type=merge", "-p", status]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain('status.addresses[0]: Invalid value: "object": Hostname value must only contain valid characters');
  const good = JSON.stringify({ status: { addresses: [{ type: "Hostname", value: "lb.example.com" }] } });
  await kubectlOk(server, ["-n", NS, "patch", "gateway", "web", "--subresource=status", "--type=merge", "-p", good]);
});

test("HTTPRoute parentRefs rules reach `namespace` as __namespace__ (cel.Escape) and refuse ambiguous parents", async () => {
  const route = (name: string, parentRefs: unknown[]) =>
    JSON.stringify({
      apiVersion: "gateway.networking.k8s.io/v1alpha2",
      kind: "HTTPRoute",
      metadata: { name, namespace: NS },
      spec: { parentRefs },
    });
  const parent = { name: "web", namespace: NS };
  await kubectlOk(
    server,
    ["apply", "-f", "-"],
    route("sections", [{ ...parent, sectionName: "http" }, { ...parent, sectionName: "https" }]),
  );
  await kubectlOk(server, ["apply", "-f", "-"], route("two-parents", [parent, { ...parent, namespace: "other" }]));
  const unnamed = await server.kubectl(["apply", "-f", "-"], { stdin: route("unnamed", [{ ...parent, sectionName: "http" }, parent]) });
  expect(unnamed.code).toBe(1);
  expect(unnamed.stderr).toContain(
    'spec.parentRefs: Invalid value: "array": sectionName must be specified when parentRefs includes 2 or more references to the same parent',
  );
  const repeated = await server.kubectl(["apply", "-f", "-"], {
    stdin: route("repeated", [{ ...parent, sectionName: "http" }, { ...parent, sectionName: "http" }]),
  });
  expect(repeated.code).toBe(1);
  expect(repeated.stderr).toContain(
    'spec.parentRefs: Invalid value: "array": sectionName must be unique when parentRefs includes 2 or more references to the same parent',
  );
});

test("a transition rule runs only on update: GatewayClass controllerName is immutable (self == oldSelf)", async () => {
  const gatewayClass = (controllerName: string, description: string) =>
    JSON.stringify({
      apiVersion: "gateway.networking.k8s.io/v1",
      kind: "GatewayClass",
      metadata: { name: "example" },
      spec: { controllerName, description },
    });
  await kubectlOk(server, ["apply", "-f", "-"], gatewayClass("example.net/gateway-controller", "first"));
  await kubectlOk(server, ["apply", "-f", "-"], gatewayClass("example.net/gateway-controller", "second"));
  const changed = await server.kubectl(["apply", "-f", "-"], { stdin: gatewayClass("example.net/other", "third") });
  expect(changed.code).toBe(1);
  expect(changed.stderr).toContain('spec.controllerName: Invalid value: "string": Value is immutable');
  expect(await kubectlOk(server, ["get", "gatewayclass", "example", "-o", "jsonpath={.spec.description}"])).toBe("second");
});

/** A Widget CRD whose spec.tags list carries `rules`; `tags` adds to the list's schema. */
function widgetCrd(rules: unknown, tags: Record<string, unknown> = { items: { type: "string" } }): string {
  return exampleCrd({ plural: "widgets", kind: "Widget" }, {
    type: "object",
    properties: { tags: { type: "array", ...tags, "x-kubernetes-validations": rules } },
  });
}

test("a CRD whose rule does not compile, or costs too much, is refused (ValidateCustomResourceDefinition)", async () => {
  const uncompiled = await server.kubectl(["create", "-f", "-"], { stdin: widgetCrd([{ rule: "self.nope()" }]) });
  expect(uncompiled.code).toBe(1);
  expect(uncompiled.stderr).toContain(
    `spec.validation.openAPIV3Schema.properties[spec].properties[tags].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.nope()", Message:""}: compilation failed: ERROR: <input>:1:10: undeclared reference to 'nope' (in container '')\n | self.nope()\n | .........^`,
  );
  const costly = await server.kubectl(["create", "-f", "-"], { stdin: widgetCrd([{ rule: "self.all(x, x.contains('gpu'))" }]) });
  expect(costly.code).toBe(1);
  expect(costly.stderr).toContain(
    "spec.validation.openAPIV3Schema.properties[spec].properties[tags].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
  );
  expect((await server.kubectl(["get", "crd", "widgets.example.com"])).code).toBe(1);
});

test("a rule calling a function its declared type has no overload for is refused at CRD creation (checker noMatchingOverload)", async () => {
  const refused = await server.kubectl(["create", "-f", "-"], { stdin: widgetCrd([{ rule: "self.startsWith('a')" }]) });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(
    `spec.validation.openAPIV3Schema.properties[spec].properties[tags].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.startsWith('a')", Message:""}: compilation failed: ERROR: <input>:1:16: found no matching overload for 'startsWith' applied to 'list(string).(string)'\n | self.startsWith('a')\n | ...............^`,
  );
  expect((await server.kubectl(["get", "crd", "widgets.example.com"])).code).toBe(1);
});

test("rules comparing unlike types or calling list functions on unfit elements are refused at CRD creation (checker internalIsAssignable, lists.go)", async () => {
  const tags = { items: { type: "object", properties: { name: { type: "string" } } } };
  const rules = [{ rule: "self == null" }, { rule: "self.isSorted()" }, { rule: "self.all(t, t != t.name)" }];
  const refused = await server.kubectl(["create", "-f", "-"], { stdin: widgetCrd(rules, tags) });
  expect(refused.code).toBe(1);
  const field = "spec.validation.openAPIV3Schema.properties[spec].properties[tags].x-kubernetes-validations";
  const stderr = refused.stderr.replace(/selfType\d+/g, "selfType#");
  expect(stderr).toContain(
    `${field}[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self == null", Message:""}: compilation failed: ERROR: <input>:1:6: found no matching overload for '_==_' applied to '(list(selfType#.@idx), null)'`,
  );
  expect(stderr).toContain(
    `${field}[1].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.isSorted()", Message:""}: compilation failed: ERROR: <input>:1:14: found no matching overload for 'isSorted' applied to 'list(selfType#.@idx).()'`,
  );
  expect(stderr).toContain(
    `${field}[2].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.all(t, t != t.name)", Message:""}: compilation failed: ERROR: <input>:1:15: found no matching overload for '_!=_' applied to '(selfType#.@idx, string)'`,
  );
  expect((await server.kubectl(["get", "crd", "widgets.example.com"])).code).toBe(1);
});

// isSorted() over strings costs per item 1 plus a traversal of the item (library.CostEstimator): with maxLength
// 100000 (400000 bytes) that is 40001 per item, so 1000 items estimate 40,001,001 (4.0 times the limit), 200 items
// 8,000,201.
test("kube's per-function cost formulas decide at CRD creation: isSorted() over long strings (EstimateCallCost)", async () => {
  const tags = (maxItems: number) => ({ maxItems, items: { type: "string", maxLength: 100000 } });
  const costly = await server.kubectl(["create", "-f", "-"], { stdin: widgetCrd([{ rule: "self.isSorted()" }], tags(1000)) });
  expect(costly.code).toBe(1);
  expect(costly.stderr).toContain(
    "spec.validation.openAPIV3Schema.properties[spec].properties[tags].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 4.0x",
  );
  await kubectlOk(server, ["create", "-f", "-"], widgetCrd([{ rule: "self.isSorted()", message: "tags must be sorted" }], tags(200)));
  await kubectlOk(server, ["wait", "--for", "condition=established", "--timeout=10s", "crd/widgets.example.com"]);
  const widget = (tags: string[]) =>
    JSON.stringify({ apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "w", namespace: NS }, spec: { tags } });
  const unsorted = await server.kubectl(["create", "-f", "-"], { stdin: widget(["b", "a"]) });
  expect(unsorted.code).toBe(1);
  expect(unsorted.stderr).toContain('spec.tags: Invalid value: "array": tags must be sorted');
  await kubectlOk(server, ["create", "-f", "-"], widget(["a", "b"]));
});

test("a nullable map entry set to null is present to has() and `in` (unstructuredMap.Find)", async () => {
  const crd = exampleCrd({ plural: "gadgets", kind: "Gadget" }, {
    type: "object",
    properties: { slots: { type: "object", additionalProperties: { type: "string", nullable: true } } },
    "x-kubernetes-validations": [
      { rule: "has(self.slots.primary)", message: "slots must name primary" },
      { rule: "'primary' in self.slots", message: "primary must be in slots" },
    ],
  });
  await kubectlOk(server, ["create", "-f", "-"], crd);
  await kubectlOk(server, ["wait", "--for", "condition=established", "--timeout=10s", "crd/gadgets.example.com"]);
  const gadget = (name: string, slots: Record<string, unknown>) =>
    JSON.stringify({ apiVersion: "example.com/v1", kind: "Gadget", metadata: { name, namespace: NS }, spec: { slots } });
  await kubectlOk(server, ["create", "-f", "-"], gadget("null-primary", { primary: null }));
  expect(await kubectlOk(server, ["get", "gadget", "null-primary", "-n", NS, "-o", "jsonpath={.spec.slots}"])).toBe('{"primary":null}');
  const missing = await server.kubectl(["create", "-f", "-"], { stdin: gadget("no-primary", { other: null }) });
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain('spec: Invalid value: "object": slots must name primary');
  expect(missing.stderr).toContain('spec: Invalid value: "object": primary must be in slots');
});

test("a date-time keeps its written offset for string() and the getters (cel-go Timestamp.ConvertToType, Receive)", async () => {
  const rules = [
    { rule: "string(self.at) == '2023-01-01T10:00:00.5+02:00'", message: "at must be written as 10:00:00.5+02:00" },
    { rule: "self.at.getHours() == 10", message: "at must be at 10 o'clock" },
  ];
  const crd = exampleCrd({ plural: "timers", kind: "Timer" }, {
    type: "object",
    properties: { at: { type: "string", format: "date-time" } },
    "x-kubernetes-validations": rules,
  });
  await kubectlOk(server, ["create", "-f", "-"], crd);
  await kubectlOk(server, ["wait", "--for", "condition=established", "--timeout=10s", "crd/timers.example.com"]);
  const timer = (name: string, at: string) =>
    JSON.stringify({ apiVersion: "example.com/v1", kind: "Timer", metadata: { name, namespace: NS }, spec: { at } });
  await kubectlOk(server, ["create", "-f", "-"], timer("local", "2023-01-01T10:00:00.500+02:00"));
  const utc = await server.kubectl(["create", "-f", "-"], { stdin: timer("utc", "2023-01-01T08:00:00.5Z") });
  expect(utc.code).toBe(1);
  expect(utc.stderr).toContain(`spec: Invalid value: "object": at must be written as 10:00:00.5+02:00`);
  expect(utc.stderr).toContain(`spec: Invalid value: "object": at must be at 10 o'clock`);
});
