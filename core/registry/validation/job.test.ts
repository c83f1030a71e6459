import { expect, test } from "bun:test";
import { messages, object } from "./_testing.ts";
import { validateCronJob } from "./cronjob.ts";
import { validateJob, validateJobUpdate } from "./job.ts";

const podTemplate = (restartPolicy = "Never") => ({ spec: { restartPolicy, containers: [{ name: "c", image: "i" }] } });

test("validateJob() requires OnFailure or Never restart policies and non-negative counts", () => {
  expect(messages(validateJob(object({ spec: { template: podTemplate("Always"), backoffLimit: -1 } })))).toEqual([
    "spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0",
    'spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"',
  ]);
  expect(validateJob(object({ spec: { template: podTemplate() } }))).toEqual([]);
});

test("validateJobUpdate() keeps the selector and template fixed", () => {
  const selector = { matchLabels: { "controller-uid": "1" } };
  const labeled = (image: string) => ({
    metadata: { labels: { "controller-uid": "1" } },
    spec: { restartPolicy: "Never", containers: [{ name: "c", image }] },
  });
  const old = object({ spec: { selector, template: labeled("a") } });
  const errors = validateJobUpdate(object({ spec: { selector: { matchLabels: { "controller-uid": "2" } }, template: labeled("b") } }), old);
  expect(errors.map((e) => [e.field, e.detail])).toContainEqual(["spec.template", "field is immutable"]);
  expect(errors.map((e) => e.field)).toContain("spec.selector");
});

test("validateJobUpdate() lets a suspended, never started Job change its node selector", () => {
  const template = (nodeSelector: Record<string, string>) => ({
    spec: { restartPolicy: "Never", nodeSelector, containers: [{ name: "c", image: "i" }] },
  });
  const old = object({ spec: { suspend: true, template: template({ a: "1" }) } });
  expect(validateJobUpdate(object({ spec: { suspend: true, template: template({ a: "2" }) } }), old)).toEqual([]);
});

test("validateCronJob() reports the schedule parser's error and unknown time zones", () => {
  const cron = (spec: Record<string, unknown>) => object({ spec: { jobTemplate: { spec: { template: podTemplate() } }, ...spec } });
  expect(messages(validateCronJob(cron({ schedule: "61 * * * *" })))).toEqual([
    'spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61',
  ]);
  expect(messages(validateCronJob(cron({ schedule: "* * * * *", timeZone: "Nowhere/City" })))).toEqual([
    'spec.timeZone: Invalid value: "Nowhere/City": unknown time zone Nowhere/City',
  ]);
  expect(messages(validateCronJob(cron({})))).toEqual(["spec.schedule: Required value"]);
  expect(validateCronJob(cron({ schedule: "@daily", timeZone: "Europe/Berlin" }))).toEqual([]);
});
