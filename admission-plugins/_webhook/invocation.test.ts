import { expect, test } from "bun:test";
import { builtInCatalog } from "../../core/registry/catalog.ts";
import { invocationFor } from "./invocation.ts";
import { matchContext } from "./match-context.ts";
import { fixedClient } from "./testing.ts";
import { webhooksOf } from "./webhook.ts";

const client = fixedClient([
  { apiVersion: "v1", kind: "Namespace", metadata: { name: "prod", labels: { env: "prod" } } },
  { apiVersion: "v1", kind: "Namespace", metadata: { name: "dev", labels: { env: "dev" } } },
]);
const context = matchContext(builtInCatalog(), client);
const hookWith = (fields: Record<string, unknown>) =>
  webhooksOf({
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "ValidatingWebhookConfiguration",
    metadata: { name: "c" },
    webhooks: [{ name: "w", ...fields }],
  })[0];
const allRules = { rules: [{ operations: ["*"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*"] }] };
const configMap = (namespace: string, labels?: Record<string, string>) => ({
  operation: "CREATE" as const,
  resource: { group: "", version: "v1", resource: "configmaps" },
  kind: { group: "", version: "v1", kind: "ConfigMap" },
  subresource: "",
  namespace,
  name: "c",
  object: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c", namespace, labels } },
  oldObject: null,
});

test("invocationFor() applies the namespaceSelector to the labels of the request's namespace", async () => {
  const hook = hookWith({ ...allRules, namespaceSelector: { matchLabels: { env: "prod" } } });
  expect(await invocationFor(hook, configMap("prod"), context)).not.toBeNull();
  expect(await invocationFor(hook, configMap("dev"), context)).toBeNull();
});

test("invocationFor() applies the namespaceSelector to a Namespace's own labels on create", async () => {
  const hook = hookWith({ ...allRules, namespaceSelector: { matchLabels: { env: "prod" } } });
  const namespace = (labels: Record<string, string>) => ({
    operation: "CREATE" as const,
    resource: { group: "", version: "v1", resource: "namespaces" },
    kind: { group: "", version: "v1", kind: "Namespace" },
    subresource: "",
    namespace: "",
    name: "new",
    object: { apiVersion: "v1", kind: "Namespace", metadata: { name: "new", labels } },
    oldObject: null,
  });
  expect(await invocationFor(hook, namespace({ env: "prod" }), context)).not.toBeNull();
  expect(await invocationFor(hook, namespace({ env: "dev" }), context)).toBeNull();
});

test("invocationFor() matches the objectSelector against the object or the old object", async () => {
  const hook = hookWith({ ...allRules, objectSelector: { matchLabels: { watched: "yes" } } });
  expect(await invocationFor(hook, configMap("dev", { watched: "yes" }), context)).not.toBeNull();
  expect(await invocationFor(hook, configMap("dev"), context)).toBeNull();
  const relabel = { ...configMap("dev"), operation: "UPDATE" as const, oldObject: configMap("dev", { watched: "yes" }).object };
  expect(await invocationFor(hook, relabel, context)).not.toBeNull();
});

test("invocationFor() under Equivalent calls a hook written for another served version of the resource", async () => {
  // The built-in catalog serves HorizontalPodAutoscalers in autoscaling/v1 and v2; a catalog with v2 alone has no equivalent.
  const v2Only = builtInCatalog();
  v2Only.remove("autoscaling", "v1", "horizontalpodautoscalers");
  const rules = [{ operations: ["CREATE"], apiGroups: ["autoscaling"], apiVersions: ["v1"], resources: ["horizontalpodautoscalers"] }];
  const request = {
    ...configMap("dev"),
    resource: { group: "autoscaling", version: "v2", resource: "horizontalpodautoscalers" },
    kind: { group: "autoscaling", version: "v2", kind: "HorizontalPodAutoscaler" },
  };
  expect(await invocationFor(hookWith({ rules }), request, matchContext(v2Only, client))).toBeNull();
  const equivalent = await invocationFor(hookWith({ rules }), request, context);
  expect(equivalent).toMatchObject({ resource: { version: "v1" }, kind: { version: "v1", kind: "HorizontalPodAutoscaler" } });
  expect(await invocationFor(hookWith({ rules, matchPolicy: "Exact" }), request, context)).toBeNull();
});
