import { expect, test } from "bun:test";
import { cronJobPrinter, jobPrinter } from "./batch.ts";
import { ago, columnNames, NOW, object } from "./_test-fixtures.ts";

const podTemplate = { spec: { containers: [{ name: "pi", image: "perl" }] } };
const selector = { matchLabels: { "controller-uid": "abc" } };

test("job and cronjob columns match kube's", () => {
  expect(columnNames(jobPrinter.columns)).toEqual(["Name", "Completions", "Duration", "Age", "Containers*", "Images*", "Selector*"]);
  expect(columnNames(cronJobPrinter.columns)).toEqual([
    "Name",
    "Schedule",
    "Suspend",
    "Active",
    "Last Schedule",
    "Age",
    "Containers*",
    "Images*",
    "Selector*",
  ]);
  expect(cronJobPrinter.columns.map((c) => c.type).slice(2, 4)).toEqual(["boolean", "integer"]);
});

const jobCases: [string, object, object, unknown[]][] = [
  [
    "a finished job shows completions and its run time",
    { completions: 1 },
    { succeeded: 1, startTime: ago(250), completionTime: ago(60) },
    ["1/1", "3m10s"],
  ],
  ["a running job's duration runs to now", { completions: 5, parallelism: 2 }, { succeeded: 2, startTime: ago(45) }, ["2/5", "45s"]],
  ["a job without completions but parallel work shows 'of N'", { parallelism: 3 }, {}, ["0/1 of 3", ""]],
  ["a job without completions or parallelism shows n/1", {}, { succeeded: 1 }, ["1/1", ""]],
];

for (const [behaviour, spec, status, expected] of jobCases) {
  test(behaviour, () => {
    const job = object("pi", { spec: { ...spec, selector, template: podTemplate }, status });
    expect(jobPrinter.cells(job, NOW)).toEqual(["pi", ...expected, "5m", "pi", "perl", "controller-uid=abc"]);
  });
}

test("a cronjob shows schedule, suspend, active jobs and the last schedule's age", () => {
  const cronJob = object("nightly", {
    spec: { schedule: "0 3 * * *", suspend: false, jobTemplate: { spec: { template: podTemplate } } },
    status: { active: [{ name: "nightly-1" }], lastScheduleTime: ago(7200) },
  });
  expect(cronJobPrinter.cells(cronJob, NOW)).toEqual(["nightly", "0 3 * * *", "False", 1, "120m", "5m", "pi", "perl", "<none>"]);
  expect(cronJobPrinter.cells(object("never", { spec: { schedule: "@daily" } }), NOW).slice(2, 5)).toEqual(["<unset>", 0, "<none>"]);
});
