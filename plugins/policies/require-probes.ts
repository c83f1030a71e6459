/** Containers must have a readiness probe and a liveness (or startup) probe, so traffic and restarts follow the app's health. */
import { defineAdmissionPlugin, deny } from "../../core/admission/sdk/mod.ts";
import { POD_SPEC_RESOURCES, podSpecOf } from "./_pod-spec.ts";

export default defineAdmissionPlugin({
  name: "require-probes",
  handles: { operations: ["CREATE", "UPDATE"], resources: POD_SPEC_RESOURCES },
  validate(request) {
    for (const [index, container] of (podSpecOf(request.object)?.containers ?? []).entries()) {
      if (!container.readinessProbe) return deny(`containers[${index}] (${container.name}): readinessProbe is required`);
      if (!container.livenessProbe && !container.startupProbe) {
        return deny(`containers[${index}] (${container.name}): livenessProbe or startupProbe is required`);
      }
    }
  },
});
