/**
 * DefaultTolerationSeconds: pods tolerate not-ready and unreachable nodes for --default-not-ready-toleration-seconds
 * and --default-unreachable-toleration-seconds (300 s) unless they say otherwise.
 */
import type { BuiltInAdmissionFactory } from "../../core/admission/types.ts";
import { isWriteTo, podSpec } from "../_match.ts";

interface Toleration {
  key?: string;
  operator?: string;
  effect?: string;
  tolerationSeconds?: number;
}

const defaultTolerationSeconds: BuiltInAdmissionFactory = ({ config }) => ({
  name: "DefaultTolerationSeconds",
  handles: (attributes) => isWriteTo(attributes, "", "pods", ["CREATE"]),
  admit({ object }) {
    const spec = podSpec(object!) as { tolerations?: Toleration[] };
    const tolerations = spec.tolerations ?? [];
    const seconds: Record<string, number> = {
      "node.kubernetes.io/not-ready": config.defaultNotReadyTolerationSeconds,
      "node.kubernetes.io/unreachable": config.defaultUnreachableTolerationSeconds,
    };
    const added = Object.keys(seconds).filter((key) =>
      !tolerations.some((t) => (t.key === key || !t.key) && (t.effect === "NoExecute" || !t.effect))
    )
      .map((key) => ({ key, operator: "Exists", effect: "NoExecute", tolerationSeconds: seconds[key] }));
    if (added.length > 0) spec.tolerations = [...tolerations, ...added];
  },
});

export default defaultTolerationSeconds;
