/** The Lease as a leader-election record (client-go's LeaseLock): its spec, expiry and release, shared by both electors. */
import type { ResourceStore } from "../../registry/store.ts";

export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

/** metav1.MicroTime's wire form: RFC 3339 with microseconds. */
export function microTime(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}

/** Whether leaseDurationSeconds has passed since renewTime (client-go's isLeaseValid, negated). */
export function leaseExpired(spec: LeaseSpec, now: Date): boolean {
  const renewed = Date.parse(spec.renewTime ?? "");
  if (Number.isNaN(renewed)) return true;
  return renewed + (spec.leaseDurationSeconds ?? 0) * 1000 <= now.getTime();
}

/** client-go's LeaderElector.release: no holder, a one-second duration, so the next candidate acquires at once. */
export async function releaseLease(leases: ResourceStore, namespace: string, name: string, identity: string): Promise<void> {
  await leases.update(namespace, name, (current) => {
    const spec = (current!.spec ?? {}) as LeaseSpec;
    if (spec.holderIdentity !== identity) return current!;
    return { ...current!, spec: { ...spec, holderIdentity: "", leaseDurationSeconds: 1, renewTime: microTime(new Date()) } };
  });
}
