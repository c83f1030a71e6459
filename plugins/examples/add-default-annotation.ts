/**
 * Example mutating admission plugin: new ConfigMaps and Pods get an annotation recording who created them,
 * unless they already have it; a warning tells the client.
 */
import { defineAdmissionPlugin, warn } from "../../core/admission/sdk/mod.ts";

export const ANNOTATION = "example.kubun.dev/created-by";

export default defineAdmissionPlugin({
  name: "add-default-annotation",
  handles: { operations: ["CREATE"], resources: ["configmaps", "pods"] },
  admit(request) {
    const metadata = request.object.metadata;
    if (metadata.annotations?.[ANNOTATION]) return;
    metadata.annotations = { ...metadata.annotations, [ANNOTATION]: request.user.username };
    return warn(`add-default-annotation: set ${ANNOTATION}`);
  },
});
