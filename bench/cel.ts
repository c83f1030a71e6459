/**
 * The cost of CRD validation rules on a write, next to a baseline measured in the same run: validating a Gateway
 * (Gateway API v0.8.0, 8 listeners, its 9 CEL rules) against its structural schema alone, then the schema plus
 * the rules, as a custom resource create does; and compiling the CRD's rules, as a CRD write does.
 * Run: node_modules/.bin/bun bench/cel.ts
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { load } from "js-yaml";
import { ruleValidator, validationRuleErrors } from "../core/cel/mod.ts";
import type { JSONSchemaProps } from "../core/registry/apiextensions/mod.ts";
import { validateValue } from "../core/crd/mod.ts";

function microsecondsPerCall(fn: () => unknown, rounds: number): number {
  for (let i = 0; i < rounds / 10; i++) fn();
  const started = performance.now();
  for (let i = 0; i < rounds; i++) fn();
  return ((performance.now() - started) * 1000) / rounds;
}

const crd = load(readFileSync(resolve(import.meta.dir, "../tests/testdata/gateway-api/gateways.yaml"), "utf8")) as {
  spec: { versions: { schema: { openAPIV3Schema: JSONSchemaProps } }[] };
};
const schema = crd.spec.versions[0].schema.openAPIV3Schema;
const listeners = Array.from({ length: 8 }, (_, i) => ({
  name: `l${i}`,
  protocol: i % 2 === 0 ? "HTTP" : "HTTPS",
  port: 8000 + i,
  hostname: `host${i}.example.com`,
  ...(i % 2 === 0 ? {} : { tls: { mode: "Terminate", certificateRefs: [{ name: `cert${i}` }] } }),
}));
const gateway = {
  apiVersion: "gateway.networking.k8s.io/v1beta1",
  kind: "Gateway",
  metadata: { name: "bench", namespace: "default" },
  spec: { gatewayClassName: "example", listeners, addresses: [{ type: "Hostname", value: "lb.example.com" }] },
};
const rules = ruleValidator(schema)!;
if (rules.validate(gateway).length > 0 || validateValue(gateway.spec, schema.properties!.spec, "spec").length > 0) {
  throw new Error("the benchmark Gateway must be valid");
}

const schemaOnly = microsecondsPerCall(() => validateValue(gateway.spec, schema.properties!.spec, "spec"), 5000);
const withRules = microsecondsPerCall(() => {
  validateValue(gateway.spec, schema.properties!.spec, "spec");
  rules.validate(gateway, gateway);
}, 2000);
const compile = microsecondsPerCall(() => validationRuleErrors(schema, "spec.validation.openAPIV3Schema"), 200);

console.log(`Gateway with 8 listeners: structural schema check ${schemaOnly.toFixed(1)} µs (baseline);`);
console.log(
  `  schema check + 9 CEL rules (update, oldSelf bound) ${withRules.toFixed(1)} µs, ${(withRules / schemaOnly).toFixed(1)}x the baseline`,
);
console.log(`Compiling and cost-checking the Gateway CRD's rules (a CRD write): ${(compile / 1000).toFixed(2)} ms`);
