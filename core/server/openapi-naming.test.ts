import { expect, test } from "bun:test";
import { groupIdentifier, groupTag, groupVersionTag, operationId } from "./openapi-naming.ts";

test("groupIdentifier() drops .k8s.io and camel-cases the rest, naming the core group Core", () => {
  expect(groupIdentifier("")).toBe("Core");
  expect(groupIdentifier("apps")).toBe("Apps");
  expect(groupIdentifier("rbac.authorization.k8s.io")).toBe("RbacAuthorization");
  expect(groupIdentifier("flowcontrol.apiserver.k8s.io")).toBe("FlowcontrolApiserver");
  expect(groupIdentifier("stable.example-corp.com")).toBe("StableExampleCorpCom");
});

test("tags are the lower-camel group, with the version after an underscore", () => {
  expect(groupTag("rbac.authorization.k8s.io")).toBe("rbacAuthorization");
  expect(groupVersionTag("", "v1")).toBe("core_v1");
  expect(groupVersionTag("autoscaling", "v2")).toBe("autoscaling_v2");
});

test("operationId() composes verb, group, version, scope, kind, subresource and suffix like kube", () => {
  const base = { group: "apps", version: "v1", kind: "Deployment" };
  expect(operationId({ ...base, verb: "list", namespaced: true })).toBe("listAppsV1NamespacedDeployment");
  expect(operationId({ ...base, verb: "delete", infix: "Collection", namespaced: true }))
    .toBe("deleteAppsV1CollectionNamespacedDeployment");
  expect(operationId({ ...base, verb: "read", namespaced: true, subresource: "scale" }))
    .toBe("readAppsV1NamespacedDeploymentScale");
  expect(operationId({ ...base, verb: "watch", namespaced: false, suffix: "ListForAllNamespaces" }))
    .toBe("watchAppsV1DeploymentListForAllNamespaces");
  const proxy = { group: "", version: "v1", namespaced: false, kind: "Node", subresource: "proxy", suffix: "WithPath" };
  expect(operationId({ ...proxy, verb: "connect", infix: "Get" })).toBe("connectCoreV1GetNodeProxyWithPath");
});
