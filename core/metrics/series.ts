/**
 * Labelled metric series whose per-request updates are plain number writes on a cell the caller keeps (or finds
 * again by its label values, one map probe per value), read by prom-client only when /metrics is scraped. prom-client's
 * own children validate and hash their labels on every inc/observe, which made up most of what API Priority and
 * Fairness added to a request, and a good part of a create's metric updates (admission, storage); these register
 * into the same prom-client Registry (its metric interface: name, get, reset) and print in its text format.
 */
import type { Registry } from "prom-client";

type MetricType = "counter" | "gauge" | "histogram";

/** What prom-client's Registry reads from a metric's get() to print it. */
interface Snapshot {
  name: string;
  help: string;
  type: MetricType;
  values: { metricName?: string; labels: Record<string, string | number>; value: number }[];
  aggregator: "sum";
}

/** One histogram series as prom-client snapshots it: cumulative buckets, +Inf, then sum and count. */
function pushHistogramSamples(
  values: Snapshot["values"],
  name: string,
  bounds: readonly number[],
  labels: Snapshot["values"][number]["labels"],
  perBucket: ArrayLike<number>,
  totals: { sum: number; count: number },
): void {
  let cumulative = 0;
  bounds.forEach((bound, index) => {
    cumulative += perBucket[index]!;
    values.push({ metricName: `${name}_bucket`, labels: { le: bound, ...labels }, value: cumulative });
  });
  values.push({ metricName: `${name}_bucket`, labels: { le: "+Inf", ...labels }, value: totals.count });
  values.push({ metricName: `${name}_sum`, labels, value: totals.sum });
  values.push({ metricName: `${name}_count`, labels, value: totals.count });
}

export interface ValueCell {
  value: number;
}

export interface HistogramCell {
  observe(value: number): void;
}

export type Labels = Record<string, string>;

/** Series under the label values so far: `next` by the next value, `cells` by the last one. */
interface SeriesLevel<Cell> {
  next: Map<string, SeriesLevel<Cell>>;
  cells: Map<string, Cell>;
}

function newLevel<Cell>(): SeriesLevel<Cell> {
  return { next: new Map(), cells: new Map() };
}

abstract class Family<Cell> {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  /** prom-client's Registry reads the aggregator when it merges registries. */
  readonly aggregator = "sum";
  protected readonly cells = new Map<string, { labels: Labels; cell: Cell }>();
  /** cell()'s series by label values, one level per value, so an update finds its series without joining a key. */
  readonly #byValues: SeriesLevel<Cell> = newLevel();

  constructor(registry: Registry, name: string, help: string, labelNames: readonly string[]) {
    this.name = name;
    this.help = help;
    this.labelNames = labelNames;
    registry.registerMetric(this as never);
  }

  /** The series of these label values (in labelNames order), made on first use. */
  cell(...labelValues: string[]): Cell {
    return this.cellOf(labelValues);
  }

  /**
   * cell() for values already in a list, which is only read during the call: a caller on every request may pass
   * the same list each time, filled anew, rather than a new one per call.
   */
  cellOf(labelValues: readonly string[]): Cell {
    let level = this.#byValues;
    const last = labelValues.length - 1;
    for (let index = 0; index < last; index++) {
      const value = labelValues[index]!;
      let next = level.next.get(value);
      if (!next) level.next.set(value, next = newLevel());
      level = next;
    }
    const value = labelValues[last] ?? "";
    let cell = level.cells.get(value);
    if (!cell) level.cells.set(value, cell = this.#newValuesCell(labelValues));
    return cell;
  }

  // Apart from cell(), which thus holds no closure and makes no scope on the calls that find their series.
  #newValuesCell(labelValues: readonly string[]): Cell {
    // Each value after its length: no two label sets share a key, whatever characters their values hold.
    return this.keyedCell(labelValues.map((labelValue) => `${labelValue.length}:${labelValue}`).join(""), () => {
      const labels: Labels = {};
      this.labelNames.forEach((labelName, index) => (labels[labelName] = labelValues[index] ?? ""));
      return labels;
    });
  }

  /**
   * The series `key` names, made on first use with `labels()` (printed in their order). For callers that already
   * hold a key per label set; a family is used either through this or through cell(), not both.
   */
  keyedCell(key: string, labels: () => Labels): Cell {
    let entry = this.cells.get(key);
    if (!entry) {
      entry = { labels: labels(), cell: this.newCell() };
      this.cells.set(key, entry);
    }
    return entry.cell;
  }

  reset(): void {
    this.cells.clear();
    this.#byValues.next.clear();
    this.#byValues.cells.clear();
  }

  protected abstract newCell(): Cell;
}

class ValueFamily extends Family<ValueCell> {
  readonly #type: MetricType;

  constructor(registry: Registry, type: MetricType, name: string, help: string, labelNames: readonly string[]) {
    super(registry, name, help, labelNames);
    this.#type = type;
  }

  protected newCell(): ValueCell {
    return { value: 0 };
  }

  get(): Snapshot {
    const values = [...this.cells.values()].map(({ labels, cell }) => ({ labels, value: cell.value }));
    return { name: this.name, help: this.help, type: this.#type, values, aggregator: "sum" };
  }
}

export class CounterSeries extends ValueFamily {
  constructor(registry: Registry, name: string, help: string, labelNames: readonly string[]) {
    super(registry, "counter", name, help, labelNames);
  }
}

export class GaugeSeries extends ValueFamily {
  constructor(registry: Registry, name: string, help: string, labelNames: readonly string[]) {
    super(registry, "gauge", name, help, labelNames);
  }
}

interface Buckets {
  counts: number[];
  sum: number;
  count: number;
}

export class HistogramSeries extends Family<HistogramCell & Buckets> {
  readonly #bounds: readonly number[];

  constructor(registry: Registry, name: string, help: string, labelNames: readonly string[], bounds: readonly number[]) {
    super(registry, name, help, labelNames);
    this.#bounds = bounds;
  }

  protected newCell(): HistogramCell & Buckets {
    const bounds = this.#bounds;
    const cell = {
      counts: bounds.map(() => 0),
      sum: 0,
      count: 0,
      observe(value: number) {
        cell.sum += value;
        cell.count++;
        // Only the first bucket that holds the value counts it; get() makes the counts cumulative.
        for (let index = 0; index < bounds.length; index++) {
          if (value <= bounds[index]!) {
            cell.counts[index]!++;
            return;
          }
        }
      },
    };
    return cell;
  }

  get(): Snapshot {
    const values: Snapshot["values"] = [];
    for (const { labels, cell } of this.cells.values()) {
      pushHistogramSamples(values, this.name, this.#bounds, labels, cell.counts, cell);
    }
    return { name: this.name, help: this.help, type: "histogram", values, aggregator: "sum" };
  }
}

/** A series that weighs each value by how long it held (kube's TimingRatioHistogram), as a ratio to a denominator. */
export interface RatioCell {
  /** `nowMs`: a reading of the series' clock the caller already has. */
  setNumerator(numerator: number, nowMs?: number): void;
  setDenominator(denominator: number): void;
}

interface TimingBuckets {
  /** Nanoseconds spent at values up to each bound. */
  weights: number[];
  /** Σ value × nanoseconds, and all nanoseconds. */
  sum: number;
  count: number;
  value: number;
  numerator: number;
  denominator: number;
  lastMs: number;
}

/**
 * kube's TimingRatioHistogramVec (component-base prometheusextension timingHistogram): "observations at the end of
 * every nanosecond" of numerator ÷ denominator, so each bucket counts the nanoseconds the ratio spent at or under
 * its bound; a scrape first accounts for the time since the last change.
 */
export class TimingRatioHistogramSeries extends Family<RatioCell & TimingBuckets> {
  readonly #bounds: readonly number[];
  readonly #clock: () => number;
  readonly #constLabels: Record<string, string>;

  constructor(
    registry: Registry,
    name: string,
    help: string,
    labelNames: readonly string[],
    bounds: readonly number[],
    options: { clock?: () => number; constLabels?: Record<string, string> } = {},
  ) {
    super(registry, name, help, labelNames);
    this.#bounds = bounds;
    this.#clock = options.clock ?? performance.now.bind(performance);
    this.#constLabels = options.constLabels ?? {};
  }

  protected newCell(): RatioCell & TimingBuckets {
    const bounds = this.#bounds;
    const clock = this.#clock;
    const cell = {
      weights: bounds.map(() => 0),
      sum: 0,
      count: 0,
      value: 0,
      numerator: 0,
      denominator: 1,
      lastMs: clock(),
      setNumerator(numerator: number, nowMs?: number) {
        // An unchanged value keeps accruing time until the next change or scrape.
        if (numerator === cell.numerator) return;
        accumulate(cell, bounds, nowMs ?? clock());
        cell.numerator = numerator;
        cell.value = numerator / cell.denominator;
      },
      setDenominator(denominator: number) {
        accumulate(cell, bounds, clock());
        cell.denominator = denominator;
        cell.value = cell.numerator / denominator;
      },
    };
    return cell;
  }

  get(): Snapshot {
    const values: Snapshot["values"] = [];
    const now = this.#clock();
    for (const { labels: own, cell } of this.cells.values()) {
      accumulate(cell, this.#bounds, now);
      const labels = { ...this.#constLabels, ...own };
      pushHistogramSamples(values, this.name, this.#bounds, labels, cell.weights, cell);
    }
    return { name: this.name, help: this.help, type: "histogram", values, aggregator: "sum" };
  }
}

/** Weighs the value held since the last change by the nanoseconds that passed (kube's ObserveWithWeight). */
function accumulate(cell: TimingBuckets, bounds: readonly number[], nowMs: number): void {
  const nanoseconds = Math.round((nowMs - cell.lastMs) * 1e6);
  if (nanoseconds <= 0) return;
  cell.lastMs = nowMs;
  cell.count += nanoseconds;
  cell.sum += cell.value * nanoseconds;
  for (let index = 0; index < bounds.length; index++) {
    if (cell.value <= bounds[index]!) {
      cell.weights[index]! += nanoseconds;
      return;
    }
  }
}
