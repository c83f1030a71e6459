/** kube's job strategy generateSelector: a Job without manualSelector selects its pods by its own uid. */
import type { KubeObject } from "../api/types.ts";

type JobSpec = { manualSelector?: boolean; selector?: unknown; template?: { metadata?: { labels?: Record<string, string> } } };

export function generateJobSelector(job: KubeObject): void {
  const spec = (job.spec ?? {}) as JobSpec;
  if (spec.manualSelector === true || typeof job.spec !== "object") return;
  const uid = String(job.metadata.uid);
  const template = spec.template ?? {};
  template.metadata = {
    ...template.metadata,
    labels: { "controller-uid": uid, "job-name": String(job.metadata.name), ...template.metadata?.labels },
  };
  spec.template = template;
  spec.selector ??= { matchLabels: { "controller-uid": uid } };
}
