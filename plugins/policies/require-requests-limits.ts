/** Containers must request CPU and memory and limit memory, so the scheduler can place them and a leak cannot starve the node. */
import { defineAdmissionPlugin, deny } from "../../core/admission/sdk/mod.ts";
import { POD_SPEC_RESOURCES, podSpecOf } from "./_pod-spec.ts";

export default defineAdmissionPlugin({
  name: "require-requests-limits",
  handles: { operations: ["CREATE", "UPDATE"], resources: POD_SPEC_RESOURCES },
  validate(request) {
    for (const [index, container] of (podSpecOf(request.object)?.containers ?? []).entries()) {
      const { requests = {}, limits = {} } = container.resources ?? {};
      const missing = [!requests.cpu && "requests.cpu", !requests.memory && "requests.memory", !limits.memory && "limits.memory"];
      const names = missing.filter(Boolean);
      if (names.length > 0) return deny(`containers[${index}] (${container.name}): resources must set ${names.join(", ")}`);
    }
  },
});
