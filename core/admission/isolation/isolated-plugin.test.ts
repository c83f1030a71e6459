import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { statusErrorOfAsync } from "../../api/testing.ts";
import { testAttributes } from "../testing.ts";
import { IsolatedPlugin } from "./isolated-plugin.ts";
import { WorkerPool } from "./pool.ts";

// Declares its rules as defineAdmissionPlugin does; admit labels the object, counts its passes in the
// reinvocation memory, asks for one reinvocation, warns, annotates and reads through the client.
const PLUGIN = `
export default ({ pluginConfig, client }) => ({
  name: "tester",
  rules: { operations: ["CREATE"], resources: ["pods"] },
  handles: () => true,
  sideEffects: pluginConfig.sideEffects,
  async admit(request) {
    const seen = await client.get({ group: "", version: "v1", resource: "namespaces", name: request.namespace });
    request.object.metadata.labels = { ...request.object.metadata.labels, owner: seen.metadata.labels.owner };
    request.reinvocation.values.set("tester", (request.reinvocation.values.get("tester") ?? 0) + 1);
    if (!request.reinvocation.isReinvoke) request.reinvocation.requestReinvocation();
    request.addWarning("looked at " + request.name);
    request.addAuditAnnotation("tester/seen", "yes");
  },
  validate(request) {
    if (request.name === "denied") throw new Error("no");
  },
});
`;

let dir: string;
const pools: WorkerPool[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "kubun-isolated-"));
  await writeFile(join(dir, "tester.ts"), PLUGIN);
});
afterAll(async () => {
  for (const pool of pools) pool.close();
  await rm(dir, { recursive: true, force: true });
});

async function isolated(pluginConfig: object = {}): Promise<IsolatedPlugin> {
  const pool = await WorkerPool.start({
    path: join(dir, "tester.ts"),
    pluginConfig,
    config: {},
    size: 1,
    client: {
      get: (ref) => Promise.resolve({ metadata: { name: ref.name, labels: { owner: `owner-of-${ref.name}` } } }),
      list: () => Promise.resolve([]),
      watch: () => Promise.reject(new Error("unused")),
    },
    log: { info: () => {}, warn: () => {}, error: () => {} },
  });
  pools.push(pool);
  return new IsolatedPlugin(pool);
}

test("what the plugin does in its worker comes back onto the request: object, warnings, annotations, reinvocation", async () => {
  const plugin = await isolated();
  const annotations = new Map<string, string>();
  let reinvocationRequested = false;
  const values = new Map<string, unknown>();
  const attributes = testAttributes({
    addAuditAnnotation: (key, value) => annotations.set(key, value),
    reinvocation: { isReinvoke: false, values, requestReinvocation: () => (reinvocationRequested = true) },
  });
  await plugin.admit!(attributes);
  expect(attributes.object!.metadata.labels).toEqual({ owner: "owner-of-ns" });
  expect(attributes.warnings).toEqual(["looked at p"]);
  expect([...annotations]).toEqual([["tester/seen", "yes"]]);
  expect(reinvocationRequested).toBe(true);
  expect(values.get("tester")).toBe(1);
});

test("declared rules are checked without a worker; a refusal comes back as the chain's Status", async () => {
  const plugin = await isolated();
  expect(plugin.handles(testAttributes({ operation: "UPDATE" }))).toBe(false);
  expect(plugin.handles(testAttributes())).toBe(true);
  const refusal = await statusErrorOfAsync(plugin.validate!(testAttributes({ name: "denied" })));
  expect(refusal.code).toBe(403);
  expect(refusal.message).toBe('pods "denied" is forbidden: no');
});

test("a plugin with side effects refuses a dry run it handles, checked in its worker", async () => {
  const plugin = await isolated({ sideEffects: true });
  const refusal = await statusErrorOfAsync(plugin.validate!(testAttributes({ dryRun: true })));
  expect(refusal.message).toBe('admission plugin "tester" has side effects and does not support dry run');
});

test("a module that does not load rejects the pool's start with the loader's message", async () => {
  await writeFile(join(dir, "broken.ts"), "export default 42;");
  await expect(
    WorkerPool.start({
      path: join(dir, "broken.ts"),
      pluginConfig: undefined,
      config: {},
      size: 1,
      client: { get: () => Promise.resolve(null), list: () => Promise.resolve([]), watch: () => Promise.reject(new Error()) },
      log: { info: () => {}, warn: () => {}, error: () => {} },
    }),
  ).rejects.toThrow(`admission plugin ${join(dir, "broken.ts")} must default-export a factory function`);
});

test("a worker that has served its share of calls is swapped for a fresh one while calls keep being answered", async () => {
  await writeFile(
    join(dir, "counter.ts"),
    `let calls = 0;\nexport default () => ({ name: "counter", admit(request) { request.object.metadata.labels = { calls: String(++calls) }; } });`,
  );
  const reasons: string[] = [];
  const pool = await WorkerPool.start({
    path: join(dir, "counter.ts"),
    pluginConfig: undefined,
    config: {},
    size: 1,
    recycleAfterCalls: 3,
    onReplaced: (reason) => reasons.push(reason),
    client: { get: () => Promise.resolve(null), list: () => Promise.resolve([]), watch: () => Promise.reject(new Error()) },
    log: { info: () => {}, warn: () => {}, error: () => {} },
  });
  pools.push(pool);
  const plugin = new IsolatedPlugin(pool);
  const counts: string[] = [];
  for (let i = 0; i < 3; i++) {
    const attributes = testAttributes();
    await plugin.admit!(attributes);
    counts.push(attributes.object!.metadata.labels!.calls!);
  }
  while (reasons.length === 0) await Bun.sleep(10);
  const attributes = testAttributes();
  await plugin.admit!(attributes);
  expect(counts).toEqual(["1", "2", "3"]);
  // The module-level counter starts again: a fresh worker holds none of the old one's memory.
  expect(attributes.object!.metadata.labels!.calls).toBe("1");
  expect(reasons).toEqual(["recycled"]);
});

test("a module that never finishes loading (a top-level loop) fails the start instead of holding it up", async () => {
  await writeFile(join(dir, "stuck.ts"), "while (true) {}\nexport default () => ({ name: 'stuck' });");
  await expect(
    WorkerPool.start({
      path: join(dir, "stuck.ts"),
      pluginConfig: undefined,
      config: {},
      size: 1,
      loadTimeoutMs: 300,
      client: { get: () => Promise.resolve(null), list: () => Promise.resolve([]), watch: () => Promise.reject(new Error()) },
      log: { info: () => {}, warn: () => {}, error: () => {} },
    }),
  ).rejects.toThrow(`cannot load admission plugin ${join(dir, "stuck.ts")}: it did not finish loading within 0.3s`);
});
