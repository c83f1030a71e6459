/**
 * Images must name a tag other than `latest`: `latest` (also implied by no tag, unless a digest pins the image)
 * changes under a running workload. "latest" is what kube's parsers.ParseImageName reports, the same reading that
 * makes such containers default to imagePullPolicy Always.
 */
import { defineAdmissionPlugin, deny } from "../../core/admission/sdk/mod.ts";
import { imageTag } from "../../core/schema/defaults/mod.ts";
import { containersOf, POD_SPEC_RESOURCES, podSpecOf } from "./_pod-spec.ts";

export default defineAdmissionPlugin({
  name: "disallow-latest-tag",
  handles: { operations: ["CREATE", "UPDATE"], resources: POD_SPEC_RESOURCES },
  validate(request) {
    const spec = podSpecOf(request.object);
    for (const { path, container } of spec ? containersOf(spec) : []) {
      if (imageTag(container.image ?? "") === "latest") {
        return deny(`${path}: image "${container.image}" must name a tag other than latest, or a digest`);
      }
    }
  },
});
