/**
 * Leader election over a coordination.k8s.io Lease (client-go's leaderelection with a LeaseLock): the holder
 * renews spec.renewTime every retry period; another candidate takes the lease only after leaseDurationSeconds
 * without renewal. Writes carry the read resourceVersion, so two candidates can never both win one round.
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { isAlreadyExists, isConflict, isNotFound } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import type { ResourceStore } from "../../registry/store.ts";
import { logger } from "../../log/mod.ts";

const log = logger("leader-election");

export interface LeaderElectionOptions {
  namespace: string;
  name: string;
  /** Default `<hostname>_<uuid>` as kube-controller-manager's. */
  identity?: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  onStartedLeading(): void;
  onStoppedLeading(): void;
}

interface LeaseSpec {
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

export class LeaderElector {
  readonly identity: string;
  readonly #leases: ResourceStore;
  readonly #options: LeaderElectionOptions;
  #leading = false;
  #lastRenewal = 0;
  #timer?: ReturnType<typeof setTimeout>;
  #stopped = false;
  #round?: Promise<void>;

  constructor(leases: ResourceStore, options: LeaderElectionOptions) {
    this.#leases = leases;
    this.#options = options;
    this.identity = options.identity ?? `${hostname()}_${randomUUID()}`;
  }

  get leading(): boolean {
    return this.#leading;
  }

  start(): void {
    this.#stopped = false;
    this.#schedule(0);
  }

  /** Stops campaigning; a leader gives the lease up (ReleaseOnCancel) so a successor need not wait for it to expire. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#round;
    if (!this.#leading) return;
    this.#setLeading(false);
    await this.#release().catch(() => {});
  }

  #schedule(delayMs: number): void {
    this.#timer = setTimeout(() => {
      this.#round = this.#tryAcquireOrRenew().then((held) => {
        if (this.#stopped) return;
        const now = Date.now();
        if (held) this.#lastRenewal = now;
        // A leader that cannot renew within the deadline stops acting before another may take over.
        if (held !== this.#leading && (held || now - this.#lastRenewal >= this.#options.renewDeadlineMs)) this.#setLeading(held);
        this.#schedule(this.#options.retryPeriodMs);
      });
    }, delayMs);
  }

  #setLeading(leading: boolean): void {
    this.#leading = leading;
    // client-go's leaderelection logs the same lines, which operators grep for to see who leads.
    const lease = `${this.#options.namespace}/${this.#options.name}`;
    if (leading) log.info(`successfully acquired lease ${lease}`, { identity: this.identity });
    else log.info(`stopped leading: lease ${lease} lost or given up`, { identity: this.identity });
    if (leading) this.#options.onStartedLeading();
    else this.#options.onStoppedLeading();
  }

  /** One round; answers whether this candidate holds the lease afterwards. */
  async #tryAcquireOrRenew(): Promise<boolean> {
    const { namespace, name } = this.#options;
    const now = new Date();
    try {
      const current = await this.#leases.get(namespace, name).catch((e) => (isNotFound(e) ? null : Promise.reject(e)));
      if (!current) {
        await this.#leases.create(namespace, {
          apiVersion: "coordination.k8s.io/v1",
          kind: "Lease",
          metadata: { name, namespace },
          spec: this.#spec(now, {}, { acquiring: true, transition: false }),
        });
        return true;
      }
      const spec = (current.spec ?? {}) as LeaseSpec;
      const holder = spec.holderIdentity ?? "";
      if (holder !== "" && holder !== this.identity && !expired(spec, now)) return false;
      const next: KubeObject = {
        ...current,
        spec: this.#spec(now, spec, { acquiring: holder !== this.identity, transition: holder !== this.identity }),
      };
      await this.#leases.update(namespace, name, () => next);
      return true;
    } catch (error) {
      if (!isConflict(error) && !isAlreadyExists(error)) {
        log.error("leader election failed", error);
      }
      return false;
    }
  }

  /** A transition is any change of holder on an existing lease, a released one included (client-go's count). */
  #spec(now: Date, previous: LeaseSpec, { acquiring, transition }: { acquiring: boolean; transition: boolean }): LeaseSpec {
    return {
      holderIdentity: this.identity,
      leaseDurationSeconds: Math.ceil(this.#options.leaseDurationMs / 1000),
      acquireTime: acquiring ? microTime(now) : previous.acquireTime,
      renewTime: microTime(now),
      leaseTransitions: (previous.leaseTransitions ?? 0) + (transition ? 1 : 0),
    };
  }

  async #release(): Promise<void> {
    const { namespace, name } = this.#options;
    await this.#leases.update(namespace, name, (current) => {
      const spec = (current!.spec ?? {}) as LeaseSpec;
      if (spec.holderIdentity !== this.identity) return current!;
      // client-go's release: no holder, one-second duration, so the next candidate acquires at once.
      return { ...current!, spec: { ...spec, holderIdentity: "", leaseDurationSeconds: 1, renewTime: microTime(new Date()) } };
    });
  }
}

function expired(spec: LeaseSpec, now: Date): boolean {
  const renewed = Date.parse(spec.renewTime ?? "");
  if (Number.isNaN(renewed)) return true;
  return renewed + (spec.leaseDurationSeconds ?? 0) * 1000 <= now.getTime();
}
