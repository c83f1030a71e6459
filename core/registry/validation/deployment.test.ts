import { expect, test } from "bun:test";
import { messages, object } from "./_testing.ts";
import { validateDeployment, validateReplicaSet, withImmutableSelector } from "./deployment.ts";

const template = (labels: Record<string, string>) => ({ metadata: { labels }, spec: { containers: [{ name: "c", image: "i" }] } });
const spec = (extra: Record<string, unknown> = {}) => ({
  selector: { matchLabels: { app: "a" } },
  template: template({ app: "a" }),
  ...extra,
});

test("validateDeployment() accepts a matching selector and template", () => {
  expect(validateDeployment(object({ spec: spec({ replicas: 2 }) }))).toEqual([]);
});

test("validateDeployment() reports kube's selector, replica and strategy errors", () => {
  const cases: [Record<string, unknown>, string[]][] = [
    [{ template: template({ app: "a" }) }, ["spec.selector: Required value"]],
    [spec({ template: template({ app: "b" }) }), [
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"b"}: `selector` does not match template `labels`',
    ]],
    [spec({ selector: {} }), [
      "spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment",
    ]],
    [spec({ replicas: -1 }), ["spec.replicas: Invalid value: -1: must be greater than or equal to 0"]],
    [spec({ strategy: { type: "Bad" } }), ['spec.strategy.type: Unsupported value: "Bad": supported values: "Recreate", "RollingUpdate"']],
    [spec({ strategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } } }), [
      "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0",
    ]],
    [spec({ template: { ...template({ app: "a" }), spec: { restartPolicy: "Never", containers: [{ name: "c", image: "i" }] } } }), [
      'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
    ]],
  ];
  for (const [s, expected] of cases) expect(messages(validateDeployment(object({ spec: s })))).toEqual(expected);
});

test("apps/v1 selectors are immutable on update", () => {
  const update = withImmutableSelector(validateReplicaSet);
  const old = object({ spec: spec() });
  const next = object({ spec: spec({ selector: { matchLabels: { app: "a", tier: "x" } }, template: template({ app: "a", tier: "x" }) }) });
  expect(messages(update(next, old))).toEqual([
    'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"a", "tier":"x"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
  ]);
  expect(update(object({ spec: spec({ replicas: 5 }) }), old)).toEqual([]);
});
