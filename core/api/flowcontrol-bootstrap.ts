/**
 * kube's bootstrap flow-control configuration (k8s.io/apiserver pkg/apis/flowcontrol/bootstrap/default.go): the
 * mandatory and suggested PriorityLevelConfigurations and FlowSchemas, in the stored flowcontrol v1beta2 shape,
 * each annotated `apf.kubernetes.io/autoupdate-spec: "true"` as kube's newFlowSchema/newPriorityLevelConfiguration do.
 * It sits with the API types, as kube's bootstrap package does, because both the APF controller and the registry's
 * validation (the mandatory objects' fixed specs) read it.
 */
import type { KubeObject } from "./types.ts";

export const FLOWCONTROL_GROUP = "flowcontrol.apiserver.k8s.io";
export const FLOWCONTROL_VERSION = "v1beta2";
export const AUTO_UPDATE_ANNOTATION = "apf.kubernetes.io/autoupdate-spec";
export const EXEMPT = "exempt";
export const CATCH_ALL = "catch-all";

const API_VERSION = `${FLOWCONTROL_GROUP}/${FLOWCONTROL_VERSION}`;
const KUBE_CONTROLLER_MANAGER = "system:kube-controller-manager";
const KUBE_SCHEDULER = "system:kube-scheduler";
const ALL_RESOURCES = [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"], namespaces: ["*"], clusterScope: true }];
const ALL_NON_RESOURCES = [{ verbs: ["*"], nonResourceURLs: ["*"] }];
/** get, create and update of the objects leader election locks on (kube's system/workload-leader-election rules). */
const leaderElectionRules = (configMapNamespaces: string[]) => [
  { verbs: ["get", "create", "update"], apiGroups: [""], resources: ["endpoints", "configmaps"], namespaces: configMapNamespaces },
  { verbs: ["get", "create", "update"], apiGroups: ["coordination.k8s.io"], resources: ["leases"], namespaces: ["*"] },
];

type Subject = Record<string, unknown>;
const groups = (...names: string[]): Subject[] => names.map((name) => ({ kind: "Group", group: { name } }));
const users = (...names: string[]): Subject[] => names.map((name) => ({ kind: "User", user: { name } }));
const KUBE_SYSTEM_SERVICE_ACCOUNTS: Subject[] = [{ kind: "ServiceAccount", serviceAccount: { namespace: "kube-system", name: "*" } }];

function metadata(name: string) {
  return { name, annotations: { [AUTO_UPDATE_ANNOTATION]: "true" } };
}

/**
 * A Limited level with its nominal shares and the percent of them it lends (kube 1.26 set every bootstrap level's
 * LendablePercent when borrowing came in, kubernetes/kubernetes#113485).
 */
function limited(
  shares: number,
  lendablePercent: number,
  queuing?: { queues: number; handSize: number; queueLengthLimit: number },
): KubeObject {
  return {
    apiVersion: API_VERSION,
    kind: "PriorityLevelConfiguration",
    metadata: {},
    spec: {
      type: "Limited",
      limited: {
        assuredConcurrencyShares: shares,
        lendablePercent,
        limitResponse: queuing ? { type: "Queue", queuing } : { type: "Reject" },
      },
    },
  };
}

function priorityLevel(name: string, object: KubeObject): KubeObject {
  return { ...object, metadata: metadata(name) };
}

function flowSchema(
  name: string,
  priorityLevelName: string,
  matchingPrecedence: number,
  distinguisher: "ByUser" | "ByNamespace" | undefined,
  rules: Record<string, unknown>,
): KubeObject {
  return {
    apiVersion: API_VERSION,
    kind: "FlowSchema",
    metadata: metadata(name),
    spec: {
      priorityLevelConfiguration: { name: priorityLevelName },
      matchingPrecedence,
      ...(distinguisher ? { distinguisherMethod: { type: distinguisher } } : {}),
      rules: [rules],
    },
  };
}

const everything = (subjects: Subject[]) => ({ subjects, resourceRules: ALL_RESOURCES, nonResourceRules: ALL_NON_RESOURCES });

export const MANDATORY_PRIORITY_LEVELS: readonly KubeObject[] = [
  priorityLevel(EXEMPT, { apiVersion: API_VERSION, kind: "PriorityLevelConfiguration", metadata: {}, spec: { type: "Exempt" } }),
  priorityLevel(CATCH_ALL, limited(5, 0)),
];

export const MANDATORY_FLOW_SCHEMAS: readonly KubeObject[] = [
  flowSchema(EXEMPT, EXEMPT, 1, undefined, everything(groups("system:masters"))),
  flowSchema(CATCH_ALL, CATCH_ALL, 10000, "ByUser", everything(groups("system:unauthenticated", "system:authenticated"))),
];

export const SUGGESTED_PRIORITY_LEVELS: readonly KubeObject[] = [
  priorityLevel("system", limited(30, 33, { queues: 64, handSize: 6, queueLengthLimit: 50 })),
  priorityLevel("node-high", limited(40, 25, { queues: 64, handSize: 6, queueLengthLimit: 50 })),
  priorityLevel("leader-election", limited(10, 0, { queues: 16, handSize: 4, queueLengthLimit: 50 })),
  priorityLevel("workload-high", limited(40, 50, { queues: 128, handSize: 6, queueLengthLimit: 50 })),
  priorityLevel("workload-low", limited(100, 90, { queues: 128, handSize: 6, queueLengthLimit: 50 })),
  priorityLevel("global-default", limited(20, 50, { queues: 128, handSize: 6, queueLengthLimit: 50 })),
];

export const SUGGESTED_FLOW_SCHEMAS: readonly KubeObject[] = [
  flowSchema("system-nodes", "system", 500, "ByUser", everything(groups("system:nodes"))),
  flowSchema("system-node-high", "node-high", 400, "ByUser", {
    subjects: groups("system:nodes"),
    resourceRules: [
      { verbs: ["*"], apiGroups: [""], resources: ["nodes", "nodes/status"], namespaces: ["*"], clusterScope: true },
      { verbs: ["*"], apiGroups: ["coordination.k8s.io"], resources: ["leases"], namespaces: ["*"] },
    ],
  }),
  flowSchema("probes", EXEMPT, 2, undefined, {
    subjects: groups("system:unauthenticated", "system:authenticated"),
    nonResourceRules: [{ verbs: ["get"], nonResourceURLs: ["/healthz", "/readyz", "/livez"] }],
  }),
  flowSchema("system-leader-election", "leader-election", 100, "ByUser", {
    subjects: [...users(KUBE_CONTROLLER_MANAGER, KUBE_SCHEDULER), ...KUBE_SYSTEM_SERVICE_ACCOUNTS],
    resourceRules: leaderElectionRules(["kube-system"]),
  }),
  flowSchema("workload-leader-election", "leader-election", 200, "ByUser", {
    subjects: KUBE_SYSTEM_SERVICE_ACCOUNTS,
    resourceRules: leaderElectionRules(["*"]),
  }),
  flowSchema("kube-controller-manager", "workload-high", 800, "ByNamespace", everything(users(KUBE_CONTROLLER_MANAGER))),
  flowSchema("kube-scheduler", "workload-high", 800, "ByNamespace", everything(users(KUBE_SCHEDULER))),
  flowSchema("kube-system-service-accounts", "workload-high", 900, "ByNamespace", everything(KUBE_SYSTEM_SERVICE_ACCOUNTS)),
  flowSchema("service-accounts", "workload-low", 9000, "ByUser", everything(groups("system:serviceaccounts"))),
  flowSchema("global-default", "global-default", 9900, "ByUser", everything(groups("system:unauthenticated", "system:authenticated"))),
];
