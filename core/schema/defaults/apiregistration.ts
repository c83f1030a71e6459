/** apiregistration.k8s.io/v1 defaults (kube-aggregator's v1 defaults.go; spec 2.4). */
import { objectAt } from "./_fields.ts";
import type { KindDefaulters } from "./_registry.ts";
import { defaultServiceReference } from "./_service-reference.ts";

export const API_REGISTRATION_DEFAULTERS: KindDefaulters = {
  group: "apiregistration.k8s.io",
  version: "v1",
  kinds: {
    APIService: (apiService) => defaultServiceReference(objectAt(objectAt(apiService, "spec"), "service")),
  },
};
