/**
 * Requests read in one poll of the event loop go on together in the check phase after it, instead of each running
 * its whole path (chain, handler, answer) from its own socket's read. Started together, they take each step one
 * after the other, with the step's code and data still in the processor's caches for the next request; started one
 * by one, each finds the caches holding other steps. Main-thread CPU per request over TLS, the same tree with and
 * without the wave, alternating (bench/request-path-bisect.ts --binary, load 2.5-5.7): GET with a certificate at 32
 * connections 76-80 → 39-41 µs, with a token 112-123 → 52-53 µs, /healthz 62-65 → 42-44 µs, creates at 64 clients
 * 273-277 → 177-188 µs (bench/profiles/request-path.md, twelfth session). One request alone waits for one check
 * phase more, which showed no cost (bench/profiles/create-path.md).
 */
import { setImmediate } from "node:timers";
import { logger } from "../log/mod.ts";

const log = logger("listener");

export class Wave<A, B, C, D> {
  /** Flat, four to a request: a tuple or closure per request would cost cells on the hot path. */
  #waiting: unknown[] = [];
  readonly #run: (a: A, b: B, c: C, d: D) => void;

  /** `run` answers its own failures; a bug it lets through is logged, and the rest of the wave still get their turn. */
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
      try {
        this.#run(waiting[i] as A, waiting[i + 1] as B, waiting[i + 2] as C, waiting[i + 3] as D);
      } catch (error) {
        log.error("a request of a wave failed", error);
      }
    }
  };
}
