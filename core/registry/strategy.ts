/**
 * The Strategy the generic store runs for one kind (kube's registry.Store fields and the strategy objects of
 * pkg/registry/<group>/<kind>/strategy.go), and the kind-specific hooks kube-apiserver 1.26 has. Which kind gets
 * which is said once, in the kind's entry in kind-facts.ts.
 */
import { Buffer } from "node:buffer";
import type { KubeObject, ObjectMeta } from "../api/types.ts";
import { nowTimestamp } from "./object-meta.ts";
import type { UserInfo } from "../auth/user.ts";
import { finalizersAfterDelete, type PropagationPolicy } from "./delete-propagation.ts";

/**
 * The metadata a status write leaves as stored, as the status strategy's PrepareForUpdate resets it: "all" for the
 * strategies that copy the whole stored ObjectMeta (flow control's, custom resources'), else the fields named.
 */
export type StatusKeptMetadata = readonly (keyof ObjectMeta & string)[] | "all";

export interface Strategy {
  /** metadata.generation starts at 1 and bumps when anything but metadata/status changes. */
  tracksGeneration: boolean;
  /** A main-resource update that changes the annotations bumps the generation too (Deployments). */
  annotationsBumpGeneration?: true;
  /** PUT on a missing object creates it (AllowCreateOnUpdate). */
  allowCreateOnUpdate: boolean;
  /** A PUT without a resourceVersion (or "0") overwrites whatever is stored; else it is a 422 (AllowUnconditionalUpdate). */
  allowUnconditionalUpdate: boolean;
  /** The kind has a status subresource: main-resource writes keep the stored status, status writes keep the spec. */
  hasStatus: boolean;
  /** The metadata a status write keeps as stored; absent = none (kube's status strategies that reset only the spec). */
  statusKeepsMetadata?: StatusKeptMetadata;
  /**
   * The metadata the status strategy's GetResetFields names, which status writes never own in managedFields (it can
   * differ from what PrepareForUpdate keeps); absent = none.
   */
  statusResetMetadata?: StatusKeptMetadata;
  /** What happens to dependents when a delete names no policy (the strategy's DefaultGarbageCollectionPolicy). */
  defaultPropagation: PropagationPolicy;
  /** Replaces the status of a new object (kube's PrepareForCreate); absent = keep what the client sent. */
  initialStatus?: (obj: KubeObject) => unknown;
  /** Deletion answers with the deleted object instead of a Status (the Store's ReturnDeletedObject). */
  returnsDeletedObject: boolean;
  /**
   * The grace period (seconds) a delete gets, given the one the client asked for (kube's CheckGracefulDelete of a
   * RESTGracefulDeleteStrategy); absent for kinds deleted at once whatever the client asks (kube's rest.BeforeDelete).
   */
  checkGracefulDelete?: (obj: KubeObject, requested: number | undefined) => number;
  /** Rewrites a written body into its stored form on create and update (kube's conversion to the internal type). */
  normalize?: (obj: KubeObject) => void;
  /**
   * Kind-specific changes to a main-resource update's new object before it is validated, given the stored one
   * (kube's REST beginUpdate hooks, e.g. the Service's normalizeClusterIPs, and what the kind's PrepareForUpdate
   * resets besides status, e.g. a namespace's spec.finalizers).
   */
  beginUpdate?: (obj: KubeObject, old: KubeObject) => void;
  /** Kind-specific fields set on create, after the client's body (kube's PrepareForCreate); `user` is absent for the server's own writes. */
  prepareForCreate?: (obj: KubeObject, user?: UserInfo) => void;
  /**
   * The object an update stores, from the client's and the stored one (kube's PrepareForUpdate of the strategy
   * serving `subresource`); absent = the generic rules (status and finalize subresources, status kept otherwise).
   */
  prepareForUpdate?: (next: KubeObject, current: KubeObject, subresource: string) => KubeObject;
  /** Finalizers of the kind's own that hold deletion besides metadata.finalizers. */
  holdsDeletion?: (obj: KubeObject) => boolean;
  /**
   * Changes made when deletion begins, besides deletionTimestamp, given the propagation the DELETE asked for. A kind
   * with this hook deletes as kube's namespace and CRD REST Delete do (delete-plan.ts planMarkedDelete).
   */
  markTerminating?: (obj: KubeObject, propagationPolicy: PropagationPolicy | undefined) => void;
}

type NamespaceFields = { spec?: { finalizers?: string[] }; status?: { phase?: string } };

/** Namespaces carry the `kubernetes` finalizer in spec; the namespace controller removes it once they are empty. */
export const NAMESPACE_HOOKS: Partial<Strategy> = {
  prepareForCreate: (obj) => {
    const ns = obj as KubeObject & NamespaceFields;
    const finalizers = new Set([...(ns.spec?.finalizers ?? []), "kubernetes"]);
    ns.spec = { ...ns.spec, finalizers: [...finalizers].sort() };
  },
  holdsDeletion: (obj) => ((obj as KubeObject & NamespaceFields).spec?.finalizers ?? []).length > 0,
  // namespaceStrategy.PrepareForUpdate: only the finalize subresource changes spec.finalizers.
  beginUpdate: (obj, old) => {
    const finalizers = (old as KubeObject & NamespaceFields).spec?.finalizers;
    const spec = { ...(obj as KubeObject & NamespaceFields).spec };
    if (finalizers === undefined) delete spec.finalizers;
    else spec.finalizers = finalizers;
    obj.spec = spec;
  },
  markTerminating: (obj, propagationPolicy) => {
    (obj as KubeObject & NamespaceFields).status = { ...(obj as NamespaceFields).status, phase: "Terminating" };
    // The namespace REST adds or drops the orphan and foregroundDeletion finalizers as asked, else keeps them.
    const finalizers = finalizersAfterDelete("Background", obj.metadata.finalizers ?? [], propagationPolicy);
    if (finalizers) obj.metadata.finalizers = finalizers;
  },
};

/** kube's podStrategy.PrepareForCreate: a new pod is Pending with its QoS class. */
export function podInitialStatus(obj: KubeObject): unknown {
  return { phase: "Pending", qosClass: podQOSClass(obj) };
}

/** kube-aggregator clears a new APIService's status and marks a local one (no spec.service) available at once. */
export function localAPIServiceStatus(obj: KubeObject): unknown {
  if ((obj.spec as { service?: unknown } | undefined)?.service) return {};
  return {
    conditions: [{
      type: "Available",
      status: "True",
      lastTransitionTime: nowTimestamp(),
      reason: "Local",
      message: "Local APIServices are always available",
    }],
  };
}

/** Secret.stringData is write-only: kube folds it into data (base64), the string values winning. */
export function foldStringData(obj: KubeObject): void {
  const secret = obj as KubeObject & { data?: Record<string, string>; stringData?: Record<string, string> };
  if (secret.stringData === undefined) return;
  const data = { ...secret.data };
  for (const [key, value] of Object.entries(secret.stringData ?? {})) data[key] = Buffer.from(String(value), "utf8").toString("base64");
  secret.data = data;
  delete secret.stringData;
}

/**
 * kube's podStrategy.CheckGracefulDelete: the client's grace period, else the pod's terminationGracePeriodSeconds;
 * an unscheduled or finished pod goes at once whatever was asked, a negative period becomes 1.
 */
export function podGracePeriod(obj: KubeObject, requested: number | undefined): number {
  // An int64 beyond 2^53 arrives as a BigInt (core/api/exact-integers.ts).
  const spec = (obj.spec ?? {}) as { nodeName?: string; terminationGracePeriodSeconds?: number | bigint };
  const phase = (obj.status as { phase?: string } | undefined)?.phase;
  if (!spec.nodeName || phase === "Succeeded" || phase === "Failed") return 0;
  const period = requested ?? Number(spec.terminationGracePeriodSeconds ?? 0);
  return period < 0 ? 1 : period;
}

type Resources = { requests?: Record<string, unknown>; limits?: Record<string, unknown> };

/** kube's QoS class: Guaranteed when every container limits = requests for cpu and memory, BestEffort when nothing is set. */
function podQOSClass(obj: KubeObject): string {
  const spec = (obj.spec ?? {}) as { containers?: { resources?: Resources }[]; initContainers?: { resources?: Resources }[] };
  const containers = [...(spec.containers ?? []), ...(spec.initContainers ?? [])];
  let anySet = false;
  let guaranteed = containers.length > 0;
  for (const c of containers) {
    const requests = c.resources?.requests ?? {};
    const limits = c.resources?.limits ?? {};
    if (Object.keys(requests).length > 0 || Object.keys(limits).length > 0) anySet = true;
    for (const name of ["cpu", "memory"]) {
      const limit = limits[name];
      const request = requests[name] ?? limit;
      if (limit === undefined || String(request) !== String(limit)) guaranteed = false;
    }
  }
  if (!anySet) return "BestEffort";
  return guaranteed ? "Guaranteed" : "Burstable";
}
