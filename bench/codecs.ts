/**
 * Per-request costs of the write path, each next to a baseline measured in the same run: kubun's JSON decoder (which
 * also reports duplicate keys) against plain JSON.parse, protobuf decoding of a Pod against JSON.parse of the same
 * Pod, and the typed-object work every create does (schema field check, defaulting, validation) on a Deployment.
 * Run: node_modules/.bin/bun bench/codecs.ts
 */
import { decodeBody } from "../core/api/decode-body.ts";
import { decodeProtobufObject, encodeProtobufObject } from "../core/api/protobuf/mod.ts";
import type { KubeObject } from "../core/api/types.ts";
import { builtInCatalog } from "../core/registry/catalog.ts";
import { builtInDefinition } from "../core/registry/definition.ts";
import { validateNewObject } from "../core/registry/validate.ts";
import { checkFields } from "../core/schema/field-check.ts";

function podJson(containers: number): string {
  const list = Array.from({ length: containers }, (_, i) => ({
    name: `c${i}`,
    image: `registry.example.com/team/app-${i}:1.2.${i}`,
    args: ["--port=8080", "--verbose", `--id=${i}`],
    env: [{ name: "A", value: "x:y" }, { name: "B", value: 'q"uote' }],
    resources: { limits: { cpu: "500m", memory: "128Mi" }, requests: { cpu: "100m", memory: "64Mi" } },
  }));
  return JSON.stringify({
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "web", namespace: "default", labels: { app: "web" } },
    spec: { containers: list },
  });
}

function microsecondsPerCall(fn: () => unknown, rounds = 5000): number {
  for (let i = 0; i < rounds / 10; i++) fn();
  const started = performance.now();
  for (let i = 0; i < rounds; i++) fn();
  return ((performance.now() - started) * 1000) / rounds;
}

const text = podJson(18);
const bytes = new TextEncoder().encode(text);
const decoder = new TextDecoder();
const jsonParse = microsecondsPerCall(() => JSON.parse(decoder.decode(bytes)));
const kubunJson = microsecondsPerCall(() => decodeBody(bytes, "application/json", { accepted: ["application/json"] }));
const pod = JSON.parse(podJson(4));
const protobuf = encodeProtobufObject(pod, "v1", "Pod");
const podBytes = new TextEncoder().encode(JSON.stringify(pod));
const podJsonParse = microsecondsPerCall(() => JSON.parse(decoder.decode(podBytes)));
const protobufDecode = microsecondsPerCall(() => decodeProtobufObject(protobuf));

const deployments = builtInCatalog().byGroupVersionResource("apps", "v1", "deployments")!;
const deploymentDefinition = builtInDefinition(deployments);
const deploymentText = JSON.stringify({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "web", namespace: "default", labels: { app: "web" } },
  spec: { replicas: 3, selector: { matchLabels: { app: "web" } }, template: JSON.parse(podJson(2)) },
});
const deploymentTemplate = JSON.parse(deploymentText);
deploymentTemplate.spec.template = { metadata: { labels: { app: "web" } }, spec: deploymentTemplate.spec.template.spec };
const typedText = JSON.stringify(deploymentTemplate);
const typedParse = microsecondsPerCall(() => JSON.parse(typedText));
const typedWork = microsecondsPerCall(() => {
  const obj = JSON.parse(typedText) as KubeObject;
  checkFields(deployments, obj);
  deploymentDefinition.applyDefaults(obj);
  validateNewObject(deploymentDefinition, obj);
});

console.log("| measure | µs per call | baseline µs | ratio |");
console.log("|---|---|---|---|");
console.log(
  `| JSON body with duplicate-key detection (${bytes.length} B) | ${kubunJson.toFixed(1)} | JSON.parse ${jsonParse.toFixed(1)} | ${
    (kubunJson / jsonParse).toFixed(2)
  } |`,
);
console.log(
  `| protobuf Pod decode (${protobuf.length} B) | ${protobufDecode.toFixed(1)} | JSON.parse of the same Pod ${podJsonParse.toFixed(1)} | ${
    (protobufDecode / podJsonParse).toFixed(2)
  } |`,
);
console.log(
  `| Deployment create: parse + schema check + defaults + validation | ${typedWork.toFixed(1)} | JSON.parse alone ${
    typedParse.toFixed(1)
  } | ${(typedWork / typedParse).toFixed(2)} |`,
);
