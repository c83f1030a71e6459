/** DefaultTolerationSeconds: pods tolerate not-ready and unreachable nodes for 300 s unless they say otherwise. */
import type { BuiltInAdmissionFactory } from "../../core/admission/types.ts";
import { isWriteTo, podSpec } from "../_match.ts";

interface Toleration {
  key?: string;
  operator?: string;
  effect?: string;
  tolerationSeconds?: number;
}

const DEFAULT_SECONDS = 300;
const TAINT_KEYS = ["node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"];

const defaultTolerationSeconds: BuiltInAdmissionFactory = () => ({
  name: "DefaultTolerationSeconds",
  handles: (attributes) => isWriteTo(attributes, "", "pods", ["CREATE"]),
  admit({ object }) {
    const spec = podSpec(object!) as { tolerations?: Toleration[] };
    const tolerations = spec.tolerations ?? [];
    const added = TAINT_KEYS.filter((key) => !tolerations.some((t) => (t.key === key || !t.key) && (t.effect === "NoExecute" || !t.effect)))
      .map((key) => ({ key, operator: "Exists", effect: "NoExecute", tolerationSeconds: DEFAULT_SECONDS }));
    if (added.length > 0) spec.tolerations = [...tolerations, ...added];
  },
});

export default defaultTolerationSeconds;
