/**
 * The runtime cost of CRD validation rules end to end with kubectl: a rule the CRD check accepts by its estimated
 * cost (below StaticEstimatedCostLimit) is charged what it actually evaluates, as cel-go's CostObserver counts it, and
 * is stopped past PerCallLimit with kube's validateExpressions message; a rule whose loop exits early costs only
 * what it ran.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createNamespace } from "./_api.ts";
import { exampleCrd } from "./_crd.ts";
import { kubectlOk } from "./_kubectl.ts";
import { startServer, type TestServer } from "./harness.ts";

const NS = "costs";
let server: TestServer;

const CRD = exampleCrd({ plural: "tallies", singular: "tally", kind: "Tally", listKind: "TallyList" }, {
  type: "object",
  properties: {
    // Quadratic: estimated at about 5e6 for 1,000 items, under the CRD limit of 1e7, over the per-call
    // limit of 1e6 when the list is full.
    pairs: {
      type: "array",
      maxItems: 1000,
      items: { type: "integer" },
      "x-kubernetes-validations": [{ rule: "self.all(x, self.all(y, y >= 0))" }],
    },
    // Linear with an early exit: estimated at about 6 per item, run until the first zero.
    counts: {
      type: "array",
      maxItems: 300000,
      items: { type: "integer" },
      "x-kubernetes-validations": [{ rule: "self.exists(x, x == 0)", message: "needs a zero" }],
    },
  },
});

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NS);
  await kubectlOk(server, ["create", "-f", "-"], CRD);
  await kubectlOk(server, ["wait", "--for", "condition=established", "--timeout=10s", "crd/tallies.example.com"]);
});
afterAll(() => server.stop());

function tally(name: string, spec: Record<string, unknown>): string {
  return JSON.stringify({ apiVersion: "example.com/v1", kind: "Tally", metadata: { name, namespace: NS }, spec });
}

const zeros = (length: number, first = 0) => Array.from({ length }, (_, i) => i === 0 ? first : 1);

test("a rule accepted by its estimate is cancelled at run time past PerCallLimit with validateExpressions' message", async () => {
  const refused = await server.kubectl(["create", "-f", "-"], { stdin: tally("square", { pairs: zeros(1000, 1) }) });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(
    `spec.pairs: Invalid value: "array": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.all(x, self.all(y, y >= 0))`,
  );
  expect((await server.kubectl(["-n", NS, "get", "tally", "square"])).code).toBe(1);
  // 100 items cost about 50,000: well within the limit.
  await kubectlOk(server, ["create", "-f", "-"], tally("small", { pairs: zeros(100, 1) }));
});

test("a loop that exits early is charged only the iterations it ran (evalFold stops on a false condition)", async () => {
  // 200,000 items would cost about 1.2e6 if every item were visited; the first one ends the loop.
  await kubectlOk(server, ["create", "-f", "-"], tally("early", { counts: zeros(200000) }));
  const late = await server.kubectl(["create", "-f", "-"], { stdin: tally("late", { counts: zeros(200000, 1) }) });
  expect(late.code).toBe(1);
  expect(late.stderr).toContain(
    `spec.counts: Invalid value: "array": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: needs a zero`,
  );
});
