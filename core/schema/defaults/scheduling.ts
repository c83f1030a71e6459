/** scheduling.k8s.io/v1 defaults (pkg/apis/scheduling/v1/defaults.go). */
import { defaultPointer } from "./_fields.ts";
import type { KindDefaulters } from "./_registry.ts";

export const SCHEDULING_DEFAULTERS: KindDefaulters = {
  group: "scheduling.k8s.io",
  version: "v1",
  kinds: { PriorityClass: (priorityClass) => defaultPointer(priorityClass, "preemptionPolicy", "PreemptLowerPriority") },
};
