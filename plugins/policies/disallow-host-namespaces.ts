/** Pods may not share the node's network, PID or IPC namespace: each one exposes the node's processes or traffic. */
import { defineAdmissionPlugin, deny } from "../../core/admission/sdk/mod.ts";
import { POD_SPEC_RESOURCES, podSpecOf } from "./_pod-spec.ts";

export default defineAdmissionPlugin({
  name: "disallow-host-namespaces",
  handles: { operations: ["CREATE", "UPDATE"], resources: POD_SPEC_RESOURCES },
  validate(request) {
    const spec = podSpecOf(request.object);
    const shared = (["hostNetwork", "hostPID", "hostIPC"] as const).filter((field) => spec?.[field] === true);
    if (shared.length > 0) return deny(`${shared.join(", ")} must not be set`);
  },
});
