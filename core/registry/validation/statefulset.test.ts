import { expect, test } from "bun:test";
import { messages, object } from "./_testing.ts";
import { STATEFULSET_UPDATE_FORBIDDEN, validateStatefulSet, validateStatefulSetUpdate } from "./statefulset.ts";

const template = (labels: Record<string, string>) => ({ metadata: { labels }, spec: { containers: [{ name: "c", image: "i" }] } });
const spec = (extra: Record<string, unknown> = {}) => ({
  selector: { matchLabels: { app: "a" } },
  template: template({ app: "a" }),
  ...extra,
});

test("validateStatefulSet() checks podManagementPolicy and updateStrategy values", () => {
  expect(messages(validateStatefulSet(object({ spec: spec({ podManagementPolicy: "Fast", updateStrategy: { type: "Bad" } }) })))).toEqual([
    `spec.podManagementPolicy: Invalid value: "Fast": must be 'OrderedReady' or 'Parallel'`,
    `spec.updateStrategy: Invalid value: {"type":"Bad"}: must be 'RollingUpdate' or 'OnDelete'`,
  ]);
});

test("validateStatefulSetUpdate() allows replicas and template changes only", () => {
  const old = object({ spec: spec({ serviceName: "a", replicas: 1 }) });
  expect(validateStatefulSetUpdate(object({ spec: spec({ serviceName: "a", replicas: 3 }) }), old)).toEqual([]);
  expect(messages(validateStatefulSetUpdate(object({ spec: spec({ serviceName: "b" }) }), old))).toEqual([
    `spec: Forbidden: ${STATEFULSET_UPDATE_FORBIDDEN}`,
  ]);
});
