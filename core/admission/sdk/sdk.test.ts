import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { toAdmissionError } from "../errors.ts";
import { testAttributes } from "../testing.ts";
import type { AdmissionPlugin as ServerPlugin } from "../types.ts";
import { type AdmissionPluginFactory, defineAdmissionPlugin, deny, type Fixture, type Pod, runFixtures, warn } from "./mod.ts";
import { jsonPatch } from "./json-patch.ts";

test("the SDK folder imports nothing outside itself, so kubun sdk init can copy it", () => {
  const dir = new URL("./", import.meta.url);
  for (const file of readdirSync(dir).filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))) {
    const specifiers = [...readFileSync(new URL(file, dir), "utf8").matchAll(/from "([^"]+)"/g)].map((match) => match[1]);
    expect(specifiers.filter((specifier) => !/^\.\/[\w.-]+\.ts$/.test(specifier))).toEqual([]);
  }
});

test("request.object narrows by handles: pods give Pod, pods and deployments a union, a type parameter a custom resource", () => {
  defineAdmissionPlugin({
    name: "typed",
    handles: { operations: ["CREATE"], resources: ["pods"] },
    validate(request) {
      const pod: Pod = request.object;
      const image: string | undefined = pod.spec?.containers[0]?.image;
      return image ? undefined : deny("no image");
    },
  });
  defineAdmissionPlugin({
    name: "union",
    handles: { operations: ["CREATE", "DELETE"], resources: ["pods", "deployments.apps"] },
    validate(request) {
      // @ts-expect-error: DELETE makes the object nullable
      void request.object.kind;
      if (request.object?.kind === "Deployment") void request.object.spec?.replicas;
    },
  });
  interface Widget {
    apiVersion: string;
    kind: string;
    metadata: Pod["metadata"];
    spec: { size: number };
  }
  defineAdmissionPlugin<Widget>({
    name: "custom",
    handles: { operations: ["*"], resources: ["widgets.example.com"] },
    validate(request) {
      if ((request.object?.spec.size ?? 0) > 3) return deny("too big");
    },
  });
});

const sizeLimit = defineAdmissionPlugin({
  name: "size-limit",
  handles: { operations: ["CREATE"], resources: ["configmaps"] },
  admit(request) {
    request.object.metadata.labels = { ...request.object.metadata.labels, checked: "yes" };
  },
  validate(request) {
    const data = request.object.data ?? {};
    if (Object.keys(data).length > 2) return deny("too many keys", { code: 422, reason: "Invalid" });
    if (Object.keys(data).length === 0) return warn("empty configmap");
  },
});

const configMap = (data: Record<string, string>) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "c", namespace: "n" },
  data,
});

test("runFixtures reports each fixture's outcome: verdicts, codes, warnings and the patch admit made", async () => {
  const fixtures: Fixture[] = [
    {
      name: "labelled",
      object: configMap({ a: "1" }),
      expect: { allowed: true, warnings: [], patch: [{ op: "add", path: "/metadata/labels", value: { checked: "yes" } }] },
    },
    { name: "warned", object: configMap({}), expect: { allowed: true, warnings: ["empty configmap"] } },
    { name: "denied", object: configMap({ a: "1", b: "2", c: "3" }), expect: { allowed: false, code: 422, message: "too many" } },
    { name: "wrong expectation", object: configMap({ a: "1", b: "2", c: "3" }), expect: { allowed: true } },
    { name: "not handled on update", object: configMap({}), oldObject: configMap({}), expect: { allowed: true, warnings: [] } },
  ];
  const results = await runFixtures(sizeLimit, fixtures);
  expect(results.map((result) => result.passed)).toEqual([true, true, true, false, true]);
  expect(results[3].reason).toBe("want allowed, got denied (422): too many keys");
});

test("a plugin that crashes fails its fixture with the error, as the server would answer 500", async () => {
  const broken: AdmissionPluginFactory = () => ({
    name: "broken",
    validate: () => {
      throw new TypeError("x is undefined");
    },
  });
  const [result] = await runFixtures(broken, [{ name: "any", object: configMap({}), expect: { allowed: false } }]);
  expect(result).toEqual({ fixture: "any", passed: false, reason: "plugin failed: x is undefined" });
});

test("namespace labels of a fixture answer the client's get of the namespace", async () => {
  const namespaceAware = defineAdmissionPlugin({
    name: "ns",
    handles: { operations: ["CREATE"], resources: ["pods"] },
    async validate(request, { client }) {
      const namespace = await client.get({ group: "", version: "v1", resource: "namespaces", name: request.namespace });
      if (namespace?.metadata.labels?.env === "prod") return deny("no pods in prod");
    },
  });
  const pod = { apiVersion: "v1", kind: "Pod", metadata: { name: "p", namespace: "shop" } };
  const results = await runFixtures(namespaceAware, [
    { name: "prod", object: pod, namespaceLabels: { env: "prod" }, expect: { allowed: false, message: "no pods in prod" } },
    { name: "dev", object: pod, namespaceLabels: { env: "dev" }, expect: { allowed: true } },
  ]);
  expect(results.every((result) => result.passed)).toBe(true);
});

const requireTeamLabel = defineAdmissionPlugin({
  name: "require-team-label",
  handles: { operations: ["CREATE"], resources: ["pods"] },
  validate: (request) => request.object.metadata.labels?.team ? undefined : deny('missing required label "team"'),
});

/** What the server answers for a plugin's refusal (core/admission/errors.ts toAdmissionError, as the chain calls it). */
async function serverAnswer(factory: AdmissionPluginFactory, attributes: ReturnType<typeof testAttributes>): Promise<unknown> {
  const plugin = (await factory({} as never)) as unknown as ServerPlugin;
  try {
    await plugin.validate!(attributes);
  } catch (thrown) {
    return toAdmissionError(thrown, attributes, plugin.name);
  }
}

test("deny() reaches clients in kube's admission.NewForbidden wording; a coded deny keeps its code and message", async () => {
  const attributes = testAttributes({
    object: configMap({ a: "1", b: "2", c: "3" }),
    kind: { group: "", version: "v1", kind: "ConfigMap" },
    resource: { group: "", version: "v1", resource: "configmaps" },
    name: "c",
  });
  expect(await serverAnswer(sizeLimit, attributes)).toMatchObject({ code: 422, reason: "Invalid", message: "too many keys" });
  expect(await serverAnswer(requireTeamLabel, testAttributes())).toMatchObject({
    code: 403,
    reason: "Forbidden",
    message: 'pods "p" is forbidden: missing required label "team"',
  });
});

test("jsonPatch gives RFC 6902 operations with escaped pointers", () => {
  expect(jsonPatch({ a: { "x/y": 1, b: [1, 2] } }, { a: { "x/y": 2, b: [1, 3], c: true } })).toEqual([
    { op: "replace", path: "/a/x~1y", value: 2 },
    { op: "replace", path: "/a/b/1", value: 3 },
    { op: "add", path: "/a/c", value: true },
  ]);
  expect(jsonPatch({ list: [1] }, { list: [1, 2] })).toEqual([{ op: "replace", path: "/list", value: [1, 2] }]);
});

test("a custom resource's fixture names its resource; without one the fixture fails saying so", async () => {
  interface Widget {
    apiVersion: string;
    kind: string;
    metadata: Pod["metadata"];
    spec: { size: number };
  }
  const sizeCap = defineAdmissionPlugin<Widget>({
    name: "size-cap",
    handles: { operations: ["CREATE"], resources: ["widgets.example.com"] },
    validate: (request) => (request.object?.spec.size ?? 0) > 3 ? deny("too big") : undefined,
  });
  const widget = { apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "w", namespace: "n" }, spec: { size: 5 } };
  const results = await runFixtures(sizeCap, [
    { name: "named", resource: "widgets.example.com", object: widget, expect: { allowed: false, message: "too big" } },
    { name: "unnamed", object: widget, expect: { allowed: false } },
  ]);
  expect(results).toEqual([
    { fixture: "named", passed: true, reason: "denied (403): too big" },
    { fixture: "unnamed", passed: false, reason: 'fixture needs "resource": example.com/v1 Widget is not a built-in kind' },
  ]);
});
