/** Pods may not mount hostPath volumes: a path on the node can hold its credentials or let a pod escape to it. */
import { defineAdmissionPlugin, deny } from "../../core/admission/sdk/mod.ts";
import { POD_SPEC_RESOURCES, podSpecOf } from "./_pod-spec.ts";

export default defineAdmissionPlugin({
  name: "disallow-host-path",
  handles: { operations: ["CREATE", "UPDATE"], resources: POD_SPEC_RESOURCES },
  validate(request) {
    const volume = (podSpecOf(request.object)?.volumes ?? []).find((candidate) => candidate.hostPath);
    if (volume) return deny(`volume "${volume.name}" mounts hostPath ${volume.hostPath!.path}`);
  },
});
