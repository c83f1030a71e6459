/** Printers for batch/v1 Jobs and CronJobs. */
import type { KubeObject } from "../types.ts";
import { containerCells, type ContainerLike, formatLabelSelector, formatOptionalBool, type LabelSelectorObject } from "./_format.ts";
import { AGE_COLUMN, column, CONTAINERS_COLUMN, definePrinter, IMAGES_COLUMN, NAME_COLUMN, wideColumn } from "./_printer.ts";
import { ageOf, humanDuration, parseTimestamp, timeSince } from "./duration.ts";

interface JobSpec {
  completions?: number | null;
  parallelism?: number | null;
  selector?: LabelSelectorObject;
  template?: { spec?: { containers?: ContainerLike[] } };
}

interface Job extends KubeObject {
  spec?: JobSpec;
  status?: { succeeded?: number; startTime?: string; completionTime?: string };
}

interface CronJob extends KubeObject {
  spec?: { schedule?: string; suspend?: boolean | null; jobTemplate?: { spec?: JobSpec } };
  status?: { active?: unknown[]; lastScheduleTime?: string };
}

const JOB_SELECTOR_COLUMN = wideColumn("Selector", "Label selector of the job's pods");

function completions(job: Job): string {
  const succeeded = job.status?.succeeded ?? 0;
  const wanted = job.spec?.completions;
  if (wanted !== undefined && wanted !== null) return `${succeeded}/${wanted}`;
  const parallelism = job.spec?.parallelism ?? 0;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

/** Time from start to completion, or to now while running; empty before the job starts. */
function jobDuration(job: Job, now: Date): string {
  const start = parseTimestamp(job.status?.startTime);
  if (start === undefined) return "";
  const end = parseTimestamp(job.status?.completionTime) ?? now.getTime();
  return humanDuration(end - start);
}

function templateCells(spec: JobSpec | undefined): string[] {
  return [...containerCells(spec?.template?.spec?.containers), formatLabelSelector(spec?.selector)];
}

export const jobPrinter = definePrinter<Job>(
  [
    NAME_COLUMN,
    column("Completions", "Succeeded pods out of the completions wanted"),
    column("Duration", "Time the job took, or has been running"),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    JOB_SELECTOR_COLUMN,
  ],
  (job, now) => [job.metadata.name, completions(job), jobDuration(job, now), ageOf(job, now), ...templateCells(job.spec)],
);

export const cronJobPrinter = definePrinter<CronJob>(
  [
    NAME_COLUMN,
    column("Schedule", "The cron schedule"),
    column("Suspend", "Whether new runs are suspended", { type: "boolean" }),
    column("Active", "Jobs currently running", { type: "integer" }),
    column("Last Schedule", "Time since a job was last scheduled"),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    JOB_SELECTOR_COLUMN,
  ],
  (cronJob, now) => {
    const lastSchedule = cronJob.status?.lastScheduleTime ? timeSince(cronJob.status.lastScheduleTime, now) : "<none>";
    return [
      cronJob.metadata.name,
      cronJob.spec?.schedule ?? "",
      formatOptionalBool(cronJob.spec?.suspend),
      cronJob.status?.active?.length ?? 0,
      lastSchedule,
      ageOf(cronJob, now),
      ...templateCells(cronJob.spec?.jobTemplate?.spec),
    ];
  },
);
