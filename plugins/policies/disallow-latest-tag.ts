/** Images must name a tag other than `latest`, or a digest: `latest` (also implied by no tag) changes under a running workload. */
import { defineAdmissionPlugin, deny } from "../../core/admission/sdk/mod.ts";
import { containersOf, POD_SPEC_RESOURCES, podSpecOf } from "./_pod-spec.ts";

/** The tag of a reference (`registry:5000/app:1.2` → `1.2`), "" when untagged; a digest counts as pinned. */
export function imageTag(image: string): string | undefined {
  if (image.includes("@")) return undefined;
  const name = image.slice(image.lastIndexOf("/") + 1);
  return name.includes(":") ? name.slice(name.indexOf(":") + 1) : "";
}

export default defineAdmissionPlugin({
  name: "disallow-latest-tag",
  handles: { operations: ["CREATE", "UPDATE"], resources: POD_SPEC_RESOURCES },
  validate(request) {
    const spec = podSpecOf(request.object);
    for (const { path, container } of spec ? containersOf(spec) : []) {
      const tag = imageTag(container.image ?? "");
      if (tag === "" || tag === "latest") {
        return deny(`${path}: image "${container.image}" must name a tag other than latest, or a digest`);
      }
    }
  },
});
