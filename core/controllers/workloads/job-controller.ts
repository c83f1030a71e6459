/** Runs planJob for every Job: starts and stops its pods and writes its status. */
import type { KubeObject } from "../../api/types.ts";
import { collectionPrefix } from "../../registry/keys.ts";
import { type ControllerClient, JOBS, PODS } from "./client.ts";
import { planJob } from "./job.ts";
import { type ControlLoop, startLoop, syncEach } from "./loop.ts";
import { createPodFor } from "./pod-create.ts";
import { isControlledBy, podFromTemplate, type PodTemplate } from "./owner.ts";
import { writeStatusIfChanged } from "./status-write.ts";

const RESYNC_MS = 2000;

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
    for (let i = 0; i < plan.create; i++) await createPodFor(client, job, podFromTemplate(template, job, {}), "job-controller");
  }
  for (const pod of plan.remove) await client.delete(PODS, pod);
  await writeStatusIfChanged(client, JOBS, job, plan.status);
}
