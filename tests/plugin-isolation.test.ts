/**
 * End-to-end: a custom admission plugin runs in workers (core/admission/isolation). A plugin stuck in a
 * synchronous loop costs only the request it loops on: that request gets kube's 504 Timeout (NewTimeoutError,
 * as the webhook dispatchers answer past the deadline), the worker is terminated and replaced, and the server
 * keeps serving every other request meanwhile, through the same plugin too.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createNamespace, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

// Loops for ConfigMaps named loop-*, crashes its worker for crash-*, exits it for exit-*, allows the rest;
// one second per call.
const PLUGIN = `
export default () => ({
  name: "looping",
  timeoutMs: 1000,
  handles: (request) => request.resource.resource === "configmaps" && request.namespace === "isolation",
  validate(request) {
    if (request.name.startsWith("loop-")) while (true) {}
    if (request.name.startsWith("exit-")) process.exit(7);
    if (request.name.startsWith("crash-")) {
      setTimeout(() => { throw new Error("unhandled in the plugin"); }, 0);
      return new Promise(() => {});
    }
  },
});
`;

let server: TestServer;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "kubun-isolation-"));
  await writeFile(join(dir, "looping.ts"), PLUGIN);
  server = await startServer([`--enable-admission-plugins=${join(dir, "looping.ts")}`]);
  await createNamespace(server, "isolation");
});
afterAll(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

const createConfigMap = (name: string) => sendJson(server, "POST", "/api/v1/namespaces/isolation/configmaps", { metadata: { name } });

async function metric(pattern: RegExp): Promise<number> {
  const text = await (await server.request("GET", "/metrics")).text();
  return Number(pattern.exec(text)?.[1] ?? 0);
}

test("a looping plugin costs its request kube's 504 Timeout while other requests, through the same plugin, are served", async () => {
  const order: string[] = [];
  const looping = createConfigMap("loop-1").then((answer) => {
    order.push("loop");
    return answer;
  });
  for (let i = 0; i < 5; i++) {
    const answer = await createConfigMap(`served-${i}`);
    expect(answer.status).toBe(201);
    order.push(`served-${i}`);
  }
  const namespaces = await sendJson(server, "GET", "/api/v1/namespaces");
  expect(namespaces.status).toBe(200);
  order.push("list");
  const answer = await looping;
  expect(order).toEqual(["served-0", "served-1", "served-2", "served-3", "served-4", "list", "loop"]);
  expect(answer.status).toBe(504);
  expect(answer.body).toMatchObject({
    kind: "Status",
    reason: "Timeout",
    code: 504,
    message: 'Timeout: failed calling admission plugin "looping": no answer within 1s',
  });
  expect((await sendJson(server, "GET", "/api/v1/namespaces/isolation/configmaps/loop-1")).status).toBe(404);
});

test("the timed-out worker is terminated and replaced: a log line, a metric, and the plugin keeps working", async () => {
  expect(server.log()).toContain('looping.ts] worker terminated: Timeout: failed calling admission plugin "looping": no answer within 1s');
  expect(await metric(/kubun_admission_plugin_worker_replacements_total\{name="looping",reason="timeout"\} (\d+)/)).toBeGreaterThanOrEqual(
    1,
  );
  expect((await createConfigMap("after-replacement")).status).toBe(201);
  // The replacement loops like the first: each looping request costs one worker, never the server.
  expect((await createConfigMap("loop-2")).status).toBe(504);
  expect((await createConfigMap("after-second-replacement")).status).toBe(201);
});

test("a plugin that crashes its worker fails the request with kube's 500 for a failed call and the worker is replaced", async () => {
  const answer = await createConfigMap("crash-1");
  expect(answer.status).toBe(500);
  expect(answer.body.reason).toBe("InternalError");
  expect(answer.body.message).toStartWith('Internal error occurred: failed calling admission plugin "looping": worker failed:');
  expect(await metric(/kubun_admission_plugin_worker_replacements_total\{name="looping",reason="crash"\} (\d+)/)).toBeGreaterThanOrEqual(1);
  expect((await createConfigMap("after-crash")).status).toBe(201);
});

test("a plugin that calls process.exit() ends only its worker: the request gets a 500 and the server serves on", async () => {
  const answer = await createConfigMap("exit-1");
  expect(answer.status).toBe(500);
  expect(answer.body.message).toBe('Internal error occurred: failed calling admission plugin "looping": worker exited with code 7');
  expect((await createConfigMap("after-exit")).status).toBe(201);
});
