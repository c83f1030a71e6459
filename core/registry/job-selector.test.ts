import { expect, test } from "bun:test";
import { generateJobSelector } from "./job-selector.ts";

test("generateJobSelector() selects the job's pods by its uid and labels the template", () => {
  const job = { metadata: { name: "pi", uid: "u-1" }, spec: { template: { spec: {} } } };
  generateJobSelector(job);
  expect(job.spec).toEqual({
    template: { metadata: { labels: { "controller-uid": "u-1", "job-name": "pi" } }, spec: {} },
    selector: { matchLabels: { "controller-uid": "u-1" } },
  } as never);
});

test("generateJobSelector() leaves a manual selector alone", () => {
  const job = { metadata: { name: "pi", uid: "u-1" }, spec: { manualSelector: true, selector: { matchLabels: { a: "b" } }, template: {} } };
  generateJobSelector(job);
  expect(job.spec.template).toEqual({});
});
