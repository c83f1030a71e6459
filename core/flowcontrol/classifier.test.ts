import { expect, test } from "bun:test";
import { MANDATORY_FLOW_SCHEMAS, SUGGESTED_FLOW_SCHEMAS } from "../api/flowcontrol-bootstrap.ts";
import { type Classification, Classifier } from "./classifier.ts";
import type { RequestDigest } from "./matching.ts";

const level = (name: string) => ({ object: { metadata: { name, uid: `uid-${name}` } } });
const request = (username: string, groups: string[], namespace = "default"): RequestDigest => ({
  username,
  groups,
  isResourceRequest: true,
  verb: "get",
  apiGroup: "",
  resource: "configmaps",
  subresource: "",
  namespace,
  path: `/api/v1/namespaces/${namespace}/configmaps/x`,
});

function classifier(schemas = [...MANDATORY_FLOW_SCHEMAS, ...SUGGESTED_FLOW_SCHEMAS]) {
  let made = 0;
  const instance = new Classifier(schemas, (name) => level(name), (classification: Classification, at: ReturnType<typeof level>) => {
    made++;
    return { classification, level: at };
  });
  return { instance, made: () => made };
}

test("startRequest's classification: system:masters is exempt, an ordinary user global-default by user, a node system", () => {
  const { instance } = classifier();
  expect(instance.flowOf(request("admin", ["system:masters", "system:authenticated"])).classification.flowSchema).toBe("exempt");
  expect(instance.flowOf(request("alice", ["system:authenticated"])).classification).toEqual({
    flowSchema: "global-default",
    flowSchemaUid: "",
    priorityLevel: "global-default",
    priorityLevelUid: "uid-global-default",
    distinguisher: "alice",
  });
  expect(instance.flowOf(request("system:node:n1", ["system:nodes", "system:authenticated"])).classification.priorityLevel).toBe("system");
});

test("a classification is remembered per user, groups and request attributes, not per object name", () => {
  const { instance, made } = classifier();
  const first = instance.flowOf(request("alice", ["system:authenticated"]));
  expect(instance.flowOf({ ...request("alice", ["system:authenticated"]), path: "/api/v1/namespaces/default/configmaps/y" })).toBe(first);
  expect(made()).toBe(1);
  expect(instance.flowOf(request("alice", ["system:authenticated"], "other"))).not.toBe(first);
  expect(instance.flowOf(request("bob", ["system:authenticated"]))).not.toBe(first);
  expect(made()).toBe(3);
});

test("without a matching FlowSchema whose level exists, a request goes to catch-all", () => {
  const { instance } = classifier([]);
  expect(instance.flowOf(request("alice", ["system:authenticated"])).classification.flowSchema).toBe("catch-all");
});

test("a request with a very long user, groups or path is classified afresh each time, never remembered, so the cache stays small", () => {
  const { instance, made } = classifier();
  const long = "u".repeat(2000);
  const first = instance.flowOf(request(long, ["system:authenticated"]));
  const second = instance.flowOf(request(long, ["system:authenticated"]));
  expect(made()).toBe(2);
  expect(second.classification).toEqual(first.classification);
  expect(first.classification.distinguisher).toBe(long);
  instance.flowOf(request("alice", ["g".repeat(2000)]));
  instance.flowOf(request("alice", ["g".repeat(2000)]));
  expect(made()).toBe(4);
});
