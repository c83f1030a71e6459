/**
 * Example validating admission plugin: Deployments and Pods must carry a `team` label (the label key can be
 * changed in the AdmissionConfiguration: `configuration: { label: owner }`).
 */
import { defineAdmissionPlugin, deny } from "../../core/admission/sdk/mod.ts";

export default defineAdmissionPlugin({
  name: "require-team-label",
  handles: { operations: ["CREATE", "UPDATE"], resources: ["pods", "deployments.apps"] },
  validate(request, { pluginConfig }) {
    const label = (pluginConfig as { label?: string } | undefined)?.label ?? "team";
    if (!request.object.metadata.labels?.[label]) return deny(`missing required label "${label}"`);
  },
});
