/**
 * Group commit: ops submitted during the same turn of the event loop are committed together by
 * one call to `commit` (one transaction, one fsync), yet each caller gets its own outcome. The outcomes
 * may come later than the call (once the commit is durable); the next batch does not wait for them.
 */
import { setImmediate } from "node:timers";

export type Outcome<T, E extends Error = Error> = { ok: true; value: T } | { ok: false; error: E };

interface Pending<Op, Result> {
  op: Op;
  resolve: (value: Result) => void;
  reject: (error: unknown) => void;
}

/** Commits a batch; throwing (or a rejected promise) fails every op in it. */
export type CommitBatch<Op, Result> = (ops: Op[]) => Outcome<Result>[] | Promise<Outcome<Result>[]>;

export class GroupCommitQueue<Op, Result> {
  readonly #commit: CommitBatch<Op, Result>;
  #pending: Pending<Op, Result>[] = [];
  #scheduled = false;

  constructor(commit: CommitBatch<Op, Result>) {
    this.#commit = commit;
  }

  submit(op: Op): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.#pending.push({ op, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Commits everything submitted so far, now. */
  flush(): void {
    this.#scheduled = false;
    const batch = this.#pending;
    if (batch.length === 0) return;
    this.#pending = [];
    const fail = (error: unknown) => {
      for (const pending of batch) pending.reject(error);
    };
    let outcomes: Outcome<Result>[] | Promise<Outcome<Result>[]>;
    try {
      outcomes = this.#commit(batch.map((pending) => pending.op));
    } catch (error) {
      return fail(error);
    }
    if (outcomes instanceof Promise) outcomes.then((settled) => settle(batch, settled), fail);
    else settle(batch, outcomes);
  }
}

function settle<Op, Result>(batch: Pending<Op, Result>[], outcomes: Outcome<Result>[]): void {
  batch.forEach((pending, i) => {
    const outcome = outcomes[i]!;
    if (outcome.ok) pending.resolve(outcome.value);
    else pending.reject(outcome.error);
  });
}
