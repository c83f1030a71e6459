/**
 * Leader election over a coordination.k8s.io Lease (client-go's leaderelection with a LeaseLock): the holder
 * renews spec.renewTime every retry period; another candidate takes the lease only after leaseDurationSeconds
 * without renewal. Writes carry the read resourceVersion, so two candidates can never both win one round.
 */
import { isAlreadyExists, isConflict } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import type { ResourceStore } from "../../registry/store.ts";
import { logger } from "../../log/mod.ts";
import {
  candidateIdentity,
  createLease,
  ElectionRounds,
  leaseExpired,
  type LeaseSpec,
  microTime,
  readLease,
  releaseLease,
} from "./_lease-record.ts";

export { microTime };

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
  /** A promise is awaited when the elector stops, so a successor starts only after the controllers stopped. */
  onStoppedLeading(): void | Promise<void>;
}

/** What startControllers runs the manager behind: the Lease elector or the lock elector. */
export interface Elector {
  readonly identity: string;
  readonly leading: boolean;
  start(): void;
  stop(): Promise<void>;
}

/** client-go's leaderelection log lines, which operators grep for to see who leads. */
export function logLeadership(leading: boolean, lease: string, identity: string): void {
  if (leading) log.info(`successfully acquired lease ${lease}`, { identity });
  else log.info(`stopped leading: lease ${lease} lost or given up`, { identity });
}

export class LeaderElector implements Elector {
  readonly identity: string;
  readonly #leases: ResourceStore;
  readonly #options: LeaderElectionOptions;
  #leading = false;
  #lastRenewal = 0;
  readonly #rounds: ElectionRounds = new ElectionRounds((): Promise<void> =>
    this.#tryAcquireOrRenew().then((held) => {
      if (this.#rounds.stopped) return;
      const now = Date.now();
      if (held) this.#lastRenewal = now;
      // A leader that cannot renew within the deadline stops acting before another may take over.
      if (held !== this.#leading && (held || now - this.#lastRenewal >= this.#options.renewDeadlineMs)) void this.#setLeading(held);
      this.#rounds.schedule(this.#options.retryPeriodMs);
    })
  );

  constructor(leases: ResourceStore, options: LeaderElectionOptions) {
    this.#leases = leases;
    this.#options = options;
    this.identity = candidateIdentity(options.identity);
  }

  get leading(): boolean {
    return this.#leading;
  }

  start(): void {
    this.#rounds.start();
  }

  /** Stops campaigning; a leader gives the lease up (ReleaseOnCancel) so a successor need not wait for it to expire. */
  async stop(): Promise<void> {
    await this.#rounds.stop();
    if (!this.#leading) return;
    // The controllers stop before the Lease is released, so a successor never overlaps them.
    await this.#setLeading(false);
    await releaseLease(this.#leases, this.#options.namespace, this.#options.name, this.identity).catch(() => {});
  }

  /** Resolves once the callback has run (onStoppedLeading's promise included). */
  async #setLeading(leading: boolean): Promise<void> {
    this.#leading = leading;
    logLeadership(leading, `${this.#options.namespace}/${this.#options.name}`, this.identity);
    if (leading) this.#options.onStartedLeading();
    else await this.#options.onStoppedLeading();
  }

  /** One round; answers whether this candidate holds the lease afterwards. */
  async #tryAcquireOrRenew(): Promise<boolean> {
    const { namespace, name } = this.#options;
    const now = new Date();
    try {
      const current = await readLease(this.#leases, namespace, name);
      if (!current) {
        await createLease(this.#leases, namespace, name, this.#spec(now, {}, { acquiring: true, transition: false }));
        return true;
      }
      const spec = (current.spec ?? {}) as LeaseSpec;
      const holder = spec.holderIdentity ?? "";
      if (holder !== "" && holder !== this.identity && !leaseExpired(spec, now)) return false;
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
}
