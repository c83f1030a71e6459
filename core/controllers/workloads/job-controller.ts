/**
 * Runs planJob for every Job: starts and stops its pods (RealPodControl's pod Events) and writes its status. A Job
 * that finishes or is suspended or resumed records kube's Event for it (job_controller.go recordJobFinished:
 * Normal Completed "Job completed", or Warning with the Failed condition's reason and message; syncJob: Normal
 * Suspended "Job suspended" / Resumed "Job resumed"), once: when the status write that makes the change succeeds.
 */
import type { KubeObject } from "../../api/types.ts";
import { collectionPrefix } from "../../registry/keys.ts";
import { type ControllerClient, JOBS, PODS } from "./client.ts";
import { type JobStatus, planJob } from "./job.ts";
import { findCondition } from "./conditions.ts";
import type { EventNote } from "../runtime/mod.ts";
import { type ControlLoop, startLoop, syncEach } from "./loop.ts";
import { createPodFor, deletePodFor } from "./pod-control.ts";
import { isControlledBy, podFromTemplate, type PodTemplate } from "./owner.ts";
import { writeStatusIfChanged } from "./status-write.ts";

const RESYNC_MS = 2000;
const COMPONENT = "job-controller";

export function startJobController(client: ControllerClient): ControlLoop {
  const jobs = client.store(JOBS);
  const pass = async () => {
    const pods = await client.list(PODS);
    await syncEach(
      await client.list(JOBS),
      (job) => syncJob(client, job, pods.filter((pod) => pod.metadata.namespace === job.metadata.namespace && isControlledBy(pod, job))),
    );
  };
  return startLoop(jobs.changes, pass, {
    name: "job",
    prefixes: [collectionPrefix(jobs.type, ""), collectionPrefix(client.store(PODS).type, "")],
    resyncMs: RESYNC_MS,
  });
}

async function syncJob(client: ControllerClient, job: KubeObject, owned: KubeObject[]): Promise<void> {
  const plan = planJob(job, owned, Date.now());
  if (!job.metadata.deletionTimestamp) {
    const template = ((job.spec as { template?: PodTemplate } | undefined)?.template) ?? {};
    for (let i = 0; i < plan.create; i++) await createPodFor(client, job, podFromTemplate(template, job, {}), COMPONENT);
  }
  for (const pod of plan.remove) await deletePodFor(client, job, pod, COMPONENT);
  await writeStatusIfChanged(client, JOBS, job, plan.status);
  for (const note of conditionEvents(job.status as JobStatus | undefined, plan.status)) {
    client.recordEvent(job, { ...note, component: COMPONENT });
  }
}

function conditionEvents(before: JobStatus | undefined, after: JobStatus): Omit<EventNote, "component">[] {
  const turned = (type: string, status: string) => {
    const now = findCondition(after.conditions, type);
    return now?.status === status && findCondition(before?.conditions, type)?.status !== status ? now : undefined;
  };
  const complete = turned("Complete", "True");
  const failed = turned("Failed", "True");
  const notes: Omit<EventNote, "component">[] = [];
  if (complete) notes.push({ type: "Normal", reason: "Completed", message: "Job completed" });
  if (failed) notes.push({ type: "Warning", reason: String(failed.reason), message: String(failed.message) });
  if (turned("Suspended", "True")) notes.push({ type: "Normal", reason: "Suspended", message: "Job suspended" });
  if (turned("Suspended", "False")) notes.push({ type: "Normal", reason: "Resumed", message: "Job resumed" });
  return notes;
}
