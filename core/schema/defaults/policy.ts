/** policy/v1beta1 defaults: a PodSecurityPolicy allows privilege escalation unless it says otherwise (the field came later). */
import { defaultPointer, objectAt } from "./_fields.ts";
import type { KindDefaulters } from "./_registry.ts";

export const POLICY_V1BETA1_DEFAULTERS: KindDefaulters = {
  group: "policy",
  version: "v1beta1",
  kinds: {
    PodSecurityPolicy: (policy) => {
      const spec = objectAt(policy, "spec");
      if (spec) defaultPointer(spec, "allowPrivilegeEscalation", true);
    },
  },
};
