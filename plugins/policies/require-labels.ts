/**
 * Pods and workloads must carry the labels the AdmissionConfiguration names (`configuration: { labels: [team] }`;
 * default `app.kubernetes.io/name`, the recommended label tools group by).
 */
import { defineAdmissionPlugin, deny } from "../../core/admission/sdk/mod.ts";

export default defineAdmissionPlugin({
  name: "require-labels",
  handles: {
    operations: ["CREATE", "UPDATE"],
    resources: ["pods", "deployments.apps", "statefulsets.apps", "daemonsets.apps", "jobs.batch", "cronjobs.batch"],
  },
  validate(request, { pluginConfig }) {
    const required = (pluginConfig as { labels?: string[] } | undefined)?.labels ?? ["app.kubernetes.io/name"];
    const missing = required.filter((label) => !request.object.metadata.labels?.[label]);
    if (missing.length > 0) return deny(`missing required labels: ${missing.join(", ")}`);
  },
});
