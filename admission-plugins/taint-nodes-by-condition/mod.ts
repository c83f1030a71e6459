/** TaintNodesByCondition: a new Node starts tainted node.kubernetes.io/not-ready:NoSchedule until a controller clears it. */
import type { BuiltInAdmissionFactory } from "../../core/admission/types.ts";
import { isWriteTo } from "../_match.ts";

const NOT_READY_TAINT = { key: "node.kubernetes.io/not-ready", effect: "NoSchedule" };

const taintNodesByCondition: BuiltInAdmissionFactory = () => ({
  name: "TaintNodesByCondition",
  handles: (attributes) => isWriteTo(attributes, "", "nodes", ["CREATE"]),
  admit({ object }) {
    const spec = (object!.spec ??= {}) as { taints?: { key: string; effect: string }[] };
    const taints = spec.taints ?? [];
    if (!taints.some((t) => t.key === NOT_READY_TAINT.key && t.effect === NOT_READY_TAINT.effect)) {
      spec.taints = [...taints, { ...NOT_READY_TAINT }];
    }
  },
});

export default taintNodesByCondition;
