/**
 * Images must come from the registries the AdmissionConfiguration names (`configuration: { registries:
 * ["registry.example.com/"] }`, prefixes of the image reference); with none named every image is refused.
 */
import { defineAdmissionPlugin, deny } from "../../core/admission/sdk/mod.ts";
import { containersOf, POD_SPEC_RESOURCES, podSpecOf } from "./_pod-spec.ts";

export default defineAdmissionPlugin({
  name: "restrict-image-registries",
  handles: { operations: ["CREATE", "UPDATE"], resources: POD_SPEC_RESOURCES },
  validate(request, { pluginConfig }) {
    const registries = (pluginConfig as { registries?: string[] } | undefined)?.registries ?? [];
    const spec = podSpecOf(request.object);
    for (const { path, container } of spec ? containersOf(spec) : []) {
      const image = container.image ?? "";
      if (!registries.some((prefix) => image.startsWith(prefix))) {
        return deny(`${path}: image "${image}" is not from an allowed registry (${registries.join(", ") || "none configured"})`);
      }
    }
  },
});
