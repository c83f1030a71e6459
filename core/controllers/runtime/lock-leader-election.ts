/**
 * Leader election by an OS lock, for processes sharing one SQLite file (so one host and filesystem): whoever holds
 * the lock leads, until it stops or dies (the system drops a dead process's lock at once), with no write while it
 * leads. The Lease stays the visible record and is written once per acquisition, filled as client-go's
 * LeaderElector.tryAcquireOrRenew fills it for a new holder: holderIdentity, acquireTime = renewTime = now,
 * leaseTransitions one above the previous record's. It is never renewed, so its leaseDurationSeconds says "until
 * released" (LOCK_HELD_LEASE_DURATION_SECONDS) rather than a duration that would declare a live holder expired; a
 * holder that stops writes client-go's release, and one that dies is replaced by the next holder of the lock.
 */
import { isAlreadyExists, isConflict } from "../../api/errors.ts";
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
import { type Elector, type LeaderElectionOptions, logLeadership } from "./leader-election.ts";

const log = logger("leader-election");

/** The largest leaseDurationSeconds (an int32): no candidate reading the record waits out a live holder's lock. */
export const LOCK_HELD_LEASE_DURATION_SECONDS = 2_147_483_647;

export interface LeaderLock {
  /** Takes the lock if nobody holds it; never waits. True while this process holds it. */
  tryAcquire(): boolean;
  /** Gives it up for good and closes its file; idempotent. */
  release(): void;
}

export class LockLeaderElector implements Elector {
  readonly identity: string;
  readonly #leases: ResourceStore;
  readonly #lock: LeaderLock;
  readonly #options: LeaderElectionOptions;
  #leading = false;
  /** The Lease names this candidate (it may not lead yet when stopped in between). */
  #recorded = false;
  /** Candidates try the lock every retry period; the leader has nothing left to do. */
  readonly #rounds: ElectionRounds = new ElectionRounds((): Promise<void> =>
    this.#tryAcquire().then((leading): void => {
      if (this.#rounds.stopped) return;
      if (!leading) return this.#rounds.schedule(this.#options.retryPeriodMs);
      this.#leading = true;
      logLeadership(true, this.#lease, this.identity);
      this.#options.onStartedLeading();
    })
  );

  constructor(leases: ResourceStore, lock: LeaderLock, options: LeaderElectionOptions) {
    this.#leases = leases;
    this.#lock = lock;
    this.#options = options;
    this.identity = candidateIdentity(options.identity);
  }

  get leading(): boolean {
    return this.#leading;
  }

  start(): void {
    this.#rounds.start();
  }

  /** A leader stops its controllers, releases the record, then the lock, so a successor never overlaps it. */
  async stop(): Promise<void> {
    await this.#rounds.stop();
    if (this.#leading) {
      this.#leading = false;
      logLeadership(false, this.#lease, this.identity);
      await this.#options.onStoppedLeading();
    }
    if (this.#recorded) await releaseLease(this.#leases, this.#options.namespace, this.#options.name, this.identity).catch(() => {});
    this.#lock.release();
  }

  get #lease(): string {
    return `${this.#options.namespace}/${this.#options.name}`;
  }

  async #tryAcquire(): Promise<boolean> {
    if (!this.#lock.tryAcquire()) return false;
    try {
      this.#recorded = await this.#record(new Date());
      return this.#recorded;
    } catch (error) {
      if (!isConflict(error) && !isAlreadyExists(error)) log.error("recording the leader in its Lease failed", error);
      return false;
    }
  }

  /** Writes the record of this holder; false while a holder elected by the Lease itself (an older kubun) still holds it. */
  async #record(now: Date): Promise<boolean> {
    const { namespace, name } = this.#options;
    const current = await readLease(this.#leases, namespace, name);
    const acquired = {
      holderIdentity: this.identity,
      leaseDurationSeconds: LOCK_HELD_LEASE_DURATION_SECONDS,
      acquireTime: microTime(now),
      renewTime: microTime(now),
    };
    if (!current) {
      await createLease(this.#leases, namespace, name, { ...acquired, leaseTransitions: 0 });
      return true;
    }
    const previous = (current.spec ?? {}) as LeaseSpec;
    const renewedByItsHolder = previous.leaseDurationSeconds !== LOCK_HELD_LEASE_DURATION_SECONDS;
    if (previous.holderIdentity && renewedByItsHolder && !leaseExpired(previous, now)) return false;
    const spec: LeaseSpec = { ...acquired, leaseTransitions: (previous.leaseTransitions ?? 0) + 1 };
    // The read resourceVersion is the precondition: a record changed meanwhile is read again next round.
    await this.#leases.update(namespace, name, () => ({ ...current, spec }));
    return true;
  }
}
