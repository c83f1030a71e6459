/** discovery.k8s.io/v1 defaults (pkg/apis/discovery/v1/defaults.go). */
import { defaultPointer, objectsAt } from "./_fields.ts";
import type { KindDefaulters } from "./_registry.ts";

export const DISCOVERY_DEFAULTERS: KindDefaulters = {
  group: "discovery.k8s.io",
  version: "v1",
  kinds: {
    // An unnamed port shows as name "" (a pointer kube always sets).
    EndpointSlice: (slice) => {
      for (const port of objectsAt(slice, "ports")) {
        defaultPointer(port, "name", "");
        defaultPointer(port, "protocol", "TCP");
      }
    },
  },
};
