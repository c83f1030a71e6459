/**
 * APIServerIdentity (kube 1.26's start-kube-apiserver-identity-lease-controller and -garbage-collector post-start
 * hooks): the server keeps a `kube-apiserver-<id>` Lease in kube-system, <id> from the hostname as genericapiserver
 * derives APIServerID, labelled apiserver.kubernetes.io/identity=kube-apiserver and kubernetes.io/hostname, held
 * by `<id>_<uuid>` for 3600 s and renewed every 10 s (component-helpers' lease controller); apiserverleasegc
 * deletes leases of that label whose renewTime + leaseDurationSeconds has passed, at start and every hour.
 * The renewal runs on the shared 10 s renewal tick, so it is committed together with the simulated kubelets' node
 * Leases: the interval stays kube's, only the phase is shared (a first tick sooner than 10 s after start, when
 * another renewal started the timer, is harmless against an hour's lease duration).
 */
import { createHash, randomUUID } from "node:crypto";
import { isConflict, isNotFound } from "../api/errors.ts";
import type { KubeObject } from "../api/types.ts";
import type { Catalog } from "../registry/catalog.ts";
import { listObjects } from "../registry/list.ts";
import type { Registry } from "../registry/registry.ts";
import { microTime, onRenewalTick } from "./runtime/mod.ts";

const NAMESPACE = "kube-system";
const IDENTITY_LABEL = "apiserver.kubernetes.io/identity";
const IDENTITY = "kube-apiserver";
const HOSTNAME_LABEL = "kubernetes.io/hostname";
/** IdentityLeaseDurationSeconds, IdentityLeaseRenewIntervalPeriod, IdentityLeaseGCPeriod. */
export const IDENTITY_LEASE_DURATION_SECONDS = 3600;
export const IDENTITY_LEASE_RENEW_INTERVAL_MS = 10_000;
const GC_PERIOD_MS = 3_600_000;

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

/** base32.StdEncoding without padding, lower-cased. */
function base32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** genericapiserver's APIServerID: "kube-apiserver-" + base32 of the first 16 bytes of sha256(hostname). */
export function apiServerId(hostname: string): string {
  return `kube-apiserver-${base32(createHash("sha256").update(hostname).digest().subarray(0, 16))}`;
}

export interface ApiServerIdentity {
  /** The Lease's name. */
  id: string;
  /** One pass of the lease controller (also what the timer does). */
  renew(): Promise<void>;
  /** One pass of apiserverleasegc (also what the timer does). */
  collect(): Promise<void>;
  stop(): void;
}

export function startApiServerIdentity(
  registry: Registry,
  catalog: Catalog,
  options: { hostname: string; log: (line: string) => void; now?: () => Date },
): ApiServerIdentity {
  const store = registry.store(catalog.byGroupVersionResource("coordination.k8s.io", "v1", "leases")!);
  const now = options.now ?? (() => new Date());
  const id = apiServerId(options.hostname);
  const holderIdentity = `${id}_${randomUUID()}`;
  // labelAPIServerHeartbeatFunc
  const withLabels = (lease: KubeObject): KubeObject => ({
    ...lease,
    metadata: { ...lease.metadata, labels: { ...lease.metadata.labels, [IDENTITY_LABEL]: IDENTITY, [HOSTNAME_LABEL]: options.hostname } },
  });

  // The lease controller's newLease: a new Lease holds our identity; an existing one only gets a fresh renewTime.
  // Leases are created on update (AllowCreateOnUpdate), so one update does both.
  let renewing: Promise<void> | undefined;
  const renewOnce = async () => {
    const renewTime = microTime(now());
    await store.update(NAMESPACE, id, (current) =>
      withLabels(
        current ? { ...current, spec: { ...(current.spec as object), renewTime } } : {
          apiVersion: "coordination.k8s.io/v1",
          kind: "Lease",
          metadata: { name: id, namespace: NAMESPACE },
          spec: { holderIdentity, leaseDurationSeconds: IDENTITY_LEASE_DURATION_SECONDS, renewTime },
        },
      ));
  };
  // One pass at a time: the timer's and a caller's would both try to create the Lease.
  const renew = () => (renewing ??= renewOnce().finally(() => (renewing = undefined)));

  // apiserverleasegc's gc: delete expired identity leases, only if unchanged since they were read.
  const collect = async () => {
    const { list } = await listObjects(store, {
      namespace: NAMESPACE,
      revision: 0,
      limit: 0,
      matches: (lease) => lease.metadata.labels?.[IDENTITY_LABEL] === IDENTITY,
    });
    for (const lease of list.items) {
      const spec = (lease.spec ?? {}) as { renewTime?: string; leaseDurationSeconds?: number };
      if (!spec.renewTime || spec.leaseDurationSeconds === undefined) continue;
      if (Date.parse(spec.renewTime) + spec.leaseDurationSeconds * 1000 >= now().getTime()) continue;
      await store.delete(NAMESPACE, String(lease.metadata.name), { preconditions: { resourceVersion: lease.metadata.resourceVersion } })
        .catch((error: unknown) => {
          if (!isNotFound(error) && !isConflict(error)) throw error;
        });
    }
  };

  const logFailure = (what: string) => (error: unknown) =>
    options.log(`kubun: apiserver identity ${what}: ${error instanceof Error ? error.message : String(error)}`);
  void renew().catch(logFailure("lease"));
  void collect().catch(logFailure("lease garbage collection"));
  const stopRenewing = onRenewalTick(IDENTITY_LEASE_RENEW_INTERVAL_MS, () => void renew().catch(logFailure("lease")));
  const gcTimer = setInterval(() => void collect().catch(logFailure("lease garbage collection")), GC_PERIOD_MS);
  (gcTimer as { unref?: () => void }).unref?.();
  return {
    id,
    renew,
    collect,
    stop: () => {
      stopRenewing();
      clearInterval(gcTimer);
    },
  };
}
