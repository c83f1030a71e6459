/**
 * A time integral of a value that steps (kube's fairqueuing Integrator, integrator.go): it is told each new value
 * and, when read and restarted, answers the time-weighted average, standard deviation, minimum and maximum since
 * the last restart. A priority level's seat demand (seats in use plus seats waiting) is followed this way between
 * two borrowing adjustments.
 */

/** kube's IntegratorResults. */
export interface IntegratorResults {
  durationSeconds: number;
  /** NaN when no time passed. */
  average: number;
  /** NaN when no time passed. */
  deviation: number;
  min: number;
  max: number;
}

export class Integrator {
  readonly #clock: () => number;
  #lastMs: number;
  #value = 0;
  #min = 0;
  #max = 0;
  #elapsedSeconds = 0;
  #integralX = 0;
  #integralXX = 0;

  /** `clock` gives real time in milliseconds. */
  constructor(clock: () => number) {
    this.#clock = clock;
    this.#lastMs = clock();
  }

  /** `nowMs` is a reading of the same clock the caller already has. */
  set(value: number, nowMs?: number): void {
    // An unchanged value keeps accruing until the next change or reset.
    if (value === this.#value) return;
    this.#accumulate(nowMs ?? this.#clock());
    this.#value = value;
    if (value < this.#min) this.#min = value;
    if (value > this.#max) this.#max = value;
  }

  /** The figures since the last reset; the next period starts now, at the current value. */
  reset(): IntegratorResults {
    this.#accumulate(this.#clock());
    const elapsed = this.#elapsedSeconds;
    let average = NaN;
    let deviation = NaN;
    if (elapsed > 0) {
      average = this.#integralX / elapsed;
      const variance = this.#integralXX / elapsed - average * average;
      // Rounding can make a constant value's variance slightly negative: kube answers NaN then.
      deviation = variance >= 0 ? Math.sqrt(variance) : NaN;
    }
    const results = { durationSeconds: elapsed, average, deviation, min: this.#min, max: this.#max };
    this.#elapsedSeconds = 0;
    this.#integralX = 0;
    this.#integralXX = 0;
    this.#min = this.#value;
    this.#max = this.#value;
    return results;
  }

  #accumulate(now: number): void {
    const seconds = (now - this.#lastMs) / 1000;
    this.#lastMs = now;
    this.#elapsedSeconds += seconds;
    this.#integralX += this.#value * seconds;
    this.#integralXX += this.#value * this.#value * seconds;
  }
}
