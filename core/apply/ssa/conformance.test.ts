/**
 * managedFields byte for byte as kube-apiserver writes them. The Deployment case is a kube-apiserver object
 * recorded in crossplane-contrib/provider-kubernetes' extractor test data: the applied configuration (want3)
 * and the Apply entry the server stored for it.
 */
import { expect, test } from "bun:test";
import { applyConfiguration } from "./apply.ts";
import { oneVersionScope } from "./_one-version.ts";
import { typeForKind } from "./schema-type.ts";
import type { KubeObject } from "../../api/types.ts";

const NOW = "2024-09-03T14:09:23Z";

const DEPLOYMENT_CONFIG: KubeObject = JSON.parse(
  `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"nginx-deployment","namespace":"default","labels":{"app":"nginx"}},"spec":{"replicas":1,"selector":{"matchLabels":{"app":"nginx"}},"template":{"metadata":{"labels":{"app":"nginx"}},"spec":{"containers":[{"name":"nginx","image":"nginx:1.14.2","ports":[{"containerPort":80}],"env":[{"name":"MY_NODE_NAME","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"spec.nodeName"}}}]}]}}}}`,
);

const KUBE_DEPLOYMENT_FIELDS =
  `{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:replicas":{},"f:selector":{},"f:template":{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{".":{},"f:env":{"k:{\\"name\\":\\"MY_NODE_NAME\\"}":{".":{},"f:name":{},"f:valueFrom":{"f:fieldRef":{}}}},"f:image":{},"f:name":{},"f:ports":{"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}}}}}}}}}`;

test("a Deployment apply records the same managedFields entry as kube-apiserver, byte for byte", async () => {
  const scope = oneVersionScope("apps/v1", true, typeForKind("apps", "v1", "Deployment"));
  const applied = await applyConfiguration(null, DEPLOYMENT_CONFIG, {
    manager: "provider-kubernetes/sample-deployment-owner",
    force: false,
    now: NOW,
  }, scope);
  expect(JSON.stringify(applied.metadata.managedFields)).toBe(
    `[{"manager":"provider-kubernetes/sample-deployment-owner","operation":"Apply","apiVersion":"apps/v1","time":"${NOW}","fieldsType":"FieldsV1","fieldsV1":${KUBE_DEPLOYMENT_FIELDS}}]`,
  );
});

test("a ConfigMap apply records kube's documented entry (test-label and data key, no '.')", async () => {
  const scope = oneVersionScope("v1", false, typeForKind("", "v1", "ConfigMap"));
  const config = {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "test-cm", namespace: "default", labels: { "test-label": "test" } },
    data: { key: "some value" },
  };
  const applied = await applyConfiguration(null, config, { manager: "kubectl", force: false, now: NOW }, scope);
  expect(JSON.stringify((applied.metadata.managedFields as { fieldsV1: unknown }[])[0].fieldsV1)).toBe(
    `{"f:data":{"f:key":{}},"f:metadata":{"f:labels":{"f:test-label":{}}}}`,
  );
});
