/**
 * Requests read in one poll of the event loop go on together in the check phase after it, instead of each running
 * its whole path (chain, handler, answer) from its own socket's read. Started together, they take each step one
 * after the other, with the step's code and data still in the processor's caches for the next request; started one
 * by one, each finds the caches holding other steps. Measured: a GET's main-thread time over TLS at 32 connections
 * 120-146 µs → 51-56 µs, a create's at 64 clients ~350 → ~210 µs (bench/profiles/create-path.md, twelfth session: first measured as a
 * wave in the create handler, then here at the chain's entry, where it serves every request).
 * One request alone waits for one check phase more, which showed no cost.
 */
import { setImmediate } from "node:timers";

export class Wave<A, B, C, D> {
  /** Flat, four to a request: a tuple or closure per request would cost cells on the hot path. */
  #waiting: unknown[] = [];
  readonly #run: (a: A, b: B, c: C, d: D) => void;

  /** `run` answers its own failures: one request's error must not cost the others of its wave their turn. */
  constructor(run: (a: A, b: B, c: C, d: D) => void) {
    this.#run = run;
  }

  add(a: A, b: B, c: C, d: D): void {
    if (this.#waiting.length === 0) setImmediate(this.#go);
    this.#waiting.push(a, b, c, d);
  }

  readonly #go = (): void => {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (let i = 0; i < waiting.length; i += 4) {
      this.#run(waiting[i] as A, waiting[i + 1] as B, waiting[i + 2] as C, waiting[i + 3] as D);
    }
  };
}
