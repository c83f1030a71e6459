/**
 * The Lease as a leader-election record (client-go's LeaseLock): its spec, expiry, reading, creation and release, and
 * the timed rounds, shared by both electors.
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { isNotFound } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
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

/** A candidate's identity: the one given, else `<hostname>_<uuid>` as kube-controller-manager's. */
export function candidateIdentity(identity: string | undefined): string {
  return identity ?? `${hostname()}_${randomUUID()}`;
}

/** The record, or null when there is none yet. */
export function readLease(leases: ResourceStore, namespace: string, name: string): Promise<KubeObject | null> {
  return leases.get(namespace, name).catch((e) => (isNotFound(e) ? null : Promise.reject(e)));
}

/** The first record, naming its first holder. */
export async function createLease(leases: ResourceStore, namespace: string, name: string, spec: LeaseSpec): Promise<void> {
  await leases.create(namespace, { apiVersion: "coordination.k8s.io/v1", kind: "Lease", metadata: { name, namespace }, spec });
}

/** An elector's rounds: one at a time, each scheduled by the one before; stop() waits for a round under way. */
export class ElectionRounds {
  readonly #round: () => Promise<void>;
  #stopped = false;
  #timer?: ReturnType<typeof setTimeout>;
  #running?: Promise<void>;

  constructor(round: () => Promise<void>) {
    this.#round = round;
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  start(): void {
    this.#stopped = false;
    this.schedule(0);
  }

  schedule(delayMs: number): void {
    this.#timer = setTimeout(() => {
      this.#running = this.#round();
    }, delayMs);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }
}
