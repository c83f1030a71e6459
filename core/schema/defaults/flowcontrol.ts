/**
 * flowcontrol.apiserver.k8s.io/v1beta2 and v1beta3 defaults (pkg/apis/flowcontrol/v1beta2 and v1beta3 defaults.go
 * of kube 1.26); v1beta3 names the shares nominalConcurrencyShares.
 */
import type { KubeObject } from "../../api/types.ts";
import { defaultNumber, defaultPointer, objectAt } from "./_fields.ts";
import type { KindDefaulters } from "./_registry.ts";

const MATCHING_PRECEDENCE = 1000;
const CONCURRENCY_SHARES = 30;
const QUEUING = { handSize: 8, queues: 64, queueLengthLimit: 50 };

function defaultFlowSchema(flowSchema: KubeObject): void {
  const spec = objectAt(flowSchema, "spec");
  if (spec) defaultNumber(spec, "matchingPrecedence", MATCHING_PRECEDENCE);
}

function priorityLevelDefaulter(sharesField: string) {
  return (level: KubeObject): void => {
    const limited = objectAt(objectAt(level, "spec"), "limited");
    if (!limited) return;
    defaultNumber(limited, sharesField, CONCURRENCY_SHARES);
    defaultPointer(limited, "lendablePercent", 0);
    const queuing = objectAt(objectAt(limited, "limitResponse"), "queuing");
    if (!queuing) return;
    for (const [key, value] of Object.entries(QUEUING)) defaultNumber(queuing, key, value);
  };
}

export const FLOWCONTROL_DEFAULTERS: KindDefaulters = {
  group: "flowcontrol.apiserver.k8s.io",
  version: "v1beta2",
  kinds: { FlowSchema: defaultFlowSchema, PriorityLevelConfiguration: priorityLevelDefaulter("assuredConcurrencyShares") },
};

export const FLOWCONTROL_V1BETA3_DEFAULTERS: KindDefaulters = {
  group: "flowcontrol.apiserver.k8s.io",
  version: "v1beta3",
  kinds: { FlowSchema: defaultFlowSchema, PriorityLevelConfiguration: priorityLevelDefaulter("nominalConcurrencyShares") },
};
