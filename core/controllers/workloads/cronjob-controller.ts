/**
 * The CronJob controller (kube 1.26's cronjob_controllerv2): creates the Job of the latest scheduled time not
 * yet run (named <cronjob>-<minutes since epoch>, so a repeated pass finds it instead of making another),
 * honours suspend, startingDeadlineSeconds and the concurrency policy, tracks active Jobs, lastScheduleTime and
 * lastSuccessfulTime, and prunes finished Jobs beyond the history limits. `now` may run fast for tests.
 * It records cronjob_controllerv2's Events on the CronJob: SuccessfulCreate "Created job <job>", SawCompletedJob
 * "Saw completed job: <job>, status: <Complete|Failed>" when an active Job is seen finished, SuccessfulDelete
 * "Deleted job <job>" (deleteJob: Replace and history pruning), JobAlreadyActive when Forbid holds a run back, and
 * Warning FailedCreate "Error creating job: <error>" when the Job is refused.
 */
import { isDeepStrictEqual } from "node:util";
import type { KubeObject } from "../../api/types.ts";
import { collectionPrefix } from "../../registry/keys.ts";
import { isStatusError } from "../../api/errors.ts";
import { isNamespaceTerminating } from "../_races.ts";
import { type ControllerClient, CRON_JOBS, JOBS } from "./client.ts";
import { cronJobSchedule, mostRecentScheduleTime, nextScheduleTime } from "../../api/cron.ts";
import type { EventNote } from "../runtime/mod.ts";
import { findCondition } from "./conditions.ts";
import { isJobFinished, type JobStatus } from "./job.ts";
import { type ControlLoop, startLoop, syncEach } from "./loop.ts";
import { isControlledBy, newControllerRef } from "./owner.ts";
import { compareByteOrder } from "../../api/byte-order.ts";

interface CronJobSpec {
  schedule?: string;
  timeZone?: string;
  suspend?: boolean;
  /** int64: a BigInt beyond 2^53 (api/exact-integers.ts). */
  startingDeadlineSeconds?: number | bigint;
  concurrencyPolicy?: string;
  successfulJobsHistoryLimit?: number;
  failedJobsHistoryLimit?: number;
  jobTemplate?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: unknown };
}

const COMPONENT = "cronjob-controller";

function record(client: ControllerClient, cj: KubeObject, note: Omit<EventNote, "component">): void {
  client.recordEvent(cj, { ...note, component: COMPONENT });
}

export interface CronJobControllerOptions {
  /** The controller's clock in ms; default Date.now. */
  now?: () => number;
  resyncMs?: number;
}

export function startCronJobController(client: ControllerClient, options: CronJobControllerOptions = {}): ControlLoop {
  const now = options.now ?? Date.now;
  const cronJobs = client.store(CRON_JOBS);
  // kube reports an invalid schedule once and waits for the CronJob to change; so does this, per uid and schedule.
  // A run Forbid holds back is reported once per scheduled time (kube requeues for the next one).
  const reported = new Set<string>();
  const pass = async () => {
    const jobs = await client.list(JOBS);
    const live = (await client.list(CRON_JOBS)).filter((cj) => !cj.metadata.deletionTimestamp);
    await syncEach(
      live,
      (cj) =>
        syncCronJob(
          client,
          cj,
          jobs.filter((job) => job.metadata.namespace === cj.metadata.namespace && isControlledBy(job, cj)),
          now(),
          reported,
        ),
    );
  };
  return startLoop(cronJobs.changes, pass, {
    name: "cronjob",
    prefixes: [collectionPrefix(cronJobs.type, ""), collectionPrefix(client.store(JOBS).type, "")],
    resyncMs: options.resyncMs ?? 10_000,
  });
}

function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

async function syncCronJob(
  client: ControllerClient,
  cj: KubeObject,
  owned: KubeObject[],
  now: number,
  reported: Set<string>,
): Promise<void> {
  const spec = (cj.spec ?? {}) as CronJobSpec;
  if (!spec.suspend && !(await scheduleFires(client, cj, spec, reported))) return;
  const status = { ...(cj.status as Record<string, unknown> | undefined) };
  const wasActive = new Set(((status.active ?? []) as { uid?: string }[]).map((ref) => ref.uid));
  for (const job of owned) {
    if (!wasActive.has(job.metadata.uid) || !isJobFinished(job)) continue;
    const finished = findCondition((job.status as JobStatus).conditions, "Complete")?.status === "True" ? "Complete" : "Failed";
    record(client, cj, {
      type: "Normal",
      reason: "SawCompletedJob",
      message: `Saw completed job: ${job.metadata.name}, status: ${finished}`,
    });
  }
  let active = owned.filter((job) => !isJobFinished(job) && !job.metadata.deletionTimestamp);
  const completed = owned.filter((job) => findCondition((job.status as JobStatus | undefined)?.conditions, "Complete")?.status === "True");
  const lastSuccess = completed.map((job) => (job.status as JobStatus).completionTime ?? "").sort().at(-1);
  if (lastSuccess) status.lastSuccessfulTime = lastSuccess;
  const due = spec.suspend ? null : dueTime(cj, spec, now);
  const heldBack = due !== null && spec.concurrencyPolicy === "Forbid" && active.length > 0;
  if (heldBack && !reported.has(`${cj.metadata.uid}|${due}`)) {
    reported.add(`${cj.metadata.uid}|${due}`);
    const message = "Not starting job because prior execution is running and concurrency policy is Forbid";
    record(client, cj, { type: "Normal", reason: "JobAlreadyActive", message });
  }
  if (due !== null && !heldBack) {
    if (spec.concurrencyPolicy === "Replace") {
      for (const job of active) await deleteJob(client, cj, job);
      active = [];
    }
    const created = await client.create(JOBS, jobFor(cj, spec, due)).catch((error) => {
      if (isStatusError(error) && !isNamespaceTerminating(error)) {
        record(client, cj, { type: "Warning", reason: "FailedCreate", message: `Error creating job: ${error.message}` });
      }
      throw error;
    });
    if (created) record(client, cj, { type: "Normal", reason: "SuccessfulCreate", message: `Created job ${created.metadata.name}` });
    const job = created ?? (await client.get(JOBS, String(cj.metadata.namespace), jobName(cj, due)));
    if (job && isControlledBy(job, cj) && !active.some((a) => a.metadata.uid === job.metadata.uid)) active.push(job);
    status.lastScheduleTime = rfc3339(due);
  }
  if (active.length > 0) {
    status.active = active.map((job) => ({
      apiVersion: "batch/v1",
      kind: "Job",
      name: job.metadata.name,
      namespace: job.metadata.namespace,
      uid: job.metadata.uid,
      resourceVersion: job.metadata.resourceVersion,
    }));
  } else delete status.active;
  if (!isDeepStrictEqual(withoutVersions(status), withoutVersions(cj.status ?? {}))) {
    await client.updateStatus(CRON_JOBS, { ...cj, status });
  }
  await pruneHistory(client, cj, owned);
}

/** cronjob_controllerv2's deleteJob: the Job goes with its pods, and the CronJob records it. */
async function deleteJob(client: ControllerClient, cj: KubeObject, job: KubeObject): Promise<void> {
  await client.delete(JOBS, job, { propagationPolicy: "Background" });
  record(client, cj, { type: "Normal", reason: "SuccessfulDelete", message: `Deleted job ${job.metadata.name}` });
}

/**
 * kube's syncCronJob: a schedule that never fires (`59 23 31 2 *`: robfig's Next finds no time, so two schedules
 * are 0 s apart in getMostRecentScheduleTime) gets a Warning InvalidSchedule event and no Jobs.
 */
async function scheduleFires(client: ControllerClient, cj: KubeObject, spec: CronJobSpec, reported: Set<string>): Promise<boolean> {
  const schedule = String(spec.schedule ?? "");
  const from = Date.parse(String(cj.metadata.creationTimestamp));
  if (nextScheduleTime(cronJobSchedule(schedule, spec.timeZone), Number.isNaN(from) ? 0 : from) !== null) return true;
  const key = `${cj.metadata.uid}|${schedule}`;
  if (!reported.has(key)) {
    reported.add(key);
    const message = `invalid schedule: ${schedule} : time difference between two schedules is less than 1 second`;
    record(client, cj, { type: "Warning", reason: "InvalidSchedule", message });
  }
  return false;
}

/** Active references compare without resourceVersions, which change with every Job status write. */
function withoutVersions(status: object): unknown {
  const copy = structuredClone(status) as { active?: { resourceVersion?: string }[] };
  for (const ref of copy.active ?? []) delete ref.resourceVersion;
  return copy;
}

/** The latest scheduled time since the last run that is still within the starting deadline, or null. */
function dueTime(cj: KubeObject, spec: CronJobSpec, now: number): number | null {
  const last = (cj.status as { lastScheduleTime?: string } | undefined)?.lastScheduleTime ?? cj.metadata.creationTimestamp;
  let earliest = Date.parse(String(last));
  if (spec.startingDeadlineSeconds !== undefined) earliest = Math.max(earliest, now - Number(spec.startingDeadlineSeconds) * 1000);
  const { time } = mostRecentScheduleTime(cronJobSchedule(String(spec.schedule ?? ""), spec.timeZone), earliest, now);
  return time;
}

function jobName(cj: KubeObject, due: number): string {
  return `${cj.metadata.name}-${Math.floor(due / 60_000)}`;
}

function jobFor(cj: KubeObject, spec: CronJobSpec, due: number): KubeObject {
  const template = spec.jobTemplate ?? {};
  const metadata: KubeObject["metadata"] = {
    name: jobName(cj, due),
    namespace: cj.metadata.namespace,
    labels: { ...template.metadata?.labels },
    annotations: { ...template.metadata?.annotations },
    ownerReferences: [newControllerRef(cj)],
  };
  return { apiVersion: "batch/v1", kind: "Job", metadata, spec: structuredClone(template.spec ?? {}) };
}

/** Finished Jobs beyond successfulJobsHistoryLimit / failedJobsHistoryLimit go, oldest first. */
async function pruneHistory(client: ControllerClient, cj: KubeObject, owned: KubeObject[]): Promise<void> {
  const spec = (cj.spec ?? {}) as CronJobSpec;
  const finished = (type: string) =>
    owned.filter((job) =>
      !job.metadata.deletionTimestamp && findCondition((job.status as JobStatus | undefined)?.conditions, type)?.status === "True"
    )
      .sort((a, b) =>
        compareByteOrder(String(a.metadata.creationTimestamp), String(b.metadata.creationTimestamp)) ||
        compareByteOrder(String(a.metadata.name), String(b.metadata.name))
      );
  for (const [type, limit] of [["Complete", spec.successfulJobsHistoryLimit ?? 3], ["Failed", spec.failedJobsHistoryLimit ?? 1]] as const) {
    const jobs = finished(type);
    for (const job of jobs.slice(0, Math.max(jobs.length - limit, 0))) await deleteJob(client, cj, job);
  }
}
