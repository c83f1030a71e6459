import { expect, test } from "bun:test";
import { messages, object } from "./_testing.ts";
import { validateDaemonSet } from "./daemonset.ts";

const template = (labels: Record<string, string>) => ({ metadata: { labels }, spec: { containers: [{ name: "c", image: "i" }] } });
const spec = (extra: Record<string, unknown> = {}) => ({
  selector: { matchLabels: { app: "a" } },
  template: template({ app: "a" }),
  ...extra,
});

test("validateDaemonSet() names the daemonset in the empty-selector error", () => {
  expect(messages(validateDaemonSet(object({ spec: spec({ selector: {} }) })))[0]).toEndWith("empty selector is invalid for daemonset");
});
