/**
 * What keeping int64 values beyond 2^53 exact costs: parse + serialize of a typical stored Deployment through
 * parseJSONExact (one regular-expression test, then JSON.parse) against plain JSON.parse, in the same run; and,
 * for information, the exact reader an object holding such a number takes.
 * Run: node_modules/.bin/bun bench/exact-integers.ts
 */
import { parseJSONExact } from "../core/api/exact-integers.ts";

function deploymentText(extra: Record<string, unknown> = {}): string {
  const containers = Array.from({ length: 2 }, (_, i) => ({
    name: `c${i}`,
    image: `registry.example.com/team/app-${i}:1.2.${i}`,
    args: ["--port=8080", "--verbose"],
    env: [{ name: "A", value: "x:y" }],
    resources: { limits: { cpu: "500m", memory: "128Mi" }, requests: { cpu: "100m", memory: "64Mi" } },
    terminationMessagePath: "/dev/termination-log",
    imagePullPolicy: "IfNotPresent",
  }));
  return JSON.stringify({
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: {
      name: "web",
      namespace: "default",
      uid: "0b7c2f0e-5d1c-4a1e-9b9a-3f6a1c2d4e5f",
      generation: 3,
      creationTimestamp: "2026-11-25T10:00:00Z",
      labels: { app: "web" },
      annotations: { "deployment.kubernetes.io/revision": "2" },
    },
    spec: {
      replicas: 3,
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      selector: { matchLabels: { app: "web" } },
      strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: "25%", maxUnavailable: "25%" } },
      template: {
        metadata: { labels: { app: "web" } },
        spec: { containers, restartPolicy: "Always", terminationGracePeriodSeconds: 30, ...extra },
      },
    },
    status: { observedGeneration: 3, replicas: 3, readyReplicas: 3, availableReplicas: 3, updatedReplicas: 3 },
  });
}

function microsecondsPerCall(fn: () => unknown, rounds = 20000): number {
  for (let i = 0; i < rounds / 10; i++) fn();
  const started = performance.now();
  for (let i = 0; i < rounds; i++) fn();
  return ((performance.now() - started) * 1000) / rounds;
}

const typical = deploymentText();
const withBigInteger = deploymentText({ activeDeadlineSeconds: 0 }).replace(
  '"activeDeadlineSeconds":0',
  '"activeDeadlineSeconds":9223372036854775807',
);
// Alternate the two typical measures so neither gains from running second.
const plain: number[] = [];
const exact: number[] = [];
for (let i = 0; i < 3; i++) {
  plain.push(microsecondsPerCall(() => JSON.stringify(JSON.parse(typical))));
  exact.push(microsecondsPerCall(() => JSON.stringify(parseJSONExact(typical))));
}
const best = (values: number[]) => Math.min(...values);
const slowPath = microsecondsPerCall(() => JSON.stringify(parseJSONExact(withBigInteger)));

console.log("| measure | µs per call | baseline µs | ratio |");
console.log("|---|---|---|---|");
console.log(
  `| typical Deployment (${typical.length} B): parseJSONExact + stringify | ${best(exact).toFixed(2)} | JSON.parse + stringify ${
    best(plain).toFixed(2)
  } | ${(best(exact) / best(plain)).toFixed(2)} |`,
);
console.log(
  `| Deployment with an int64 beyond 2^53: exact reader + stringify | ${slowPath.toFixed(2)} | JSON.parse + stringify ${
    best(plain).toFixed(2)
  } | ${(slowPath / best(plain)).toFixed(2)} |`,
);
