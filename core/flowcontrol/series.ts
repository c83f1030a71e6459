/**
 * Labelled metric series whose per-request updates are plain number writes on a cell the caller keeps, read by
 * prom-client only when /metrics is scraped. prom-client's own children validate and hash their labels on every
 * inc/observe, which made up most of what API Priority and Fairness added to a request; these register into the
 * same prom-client Registry (its metric interface: name, get, reset) and print in its text format.
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

export interface ValueCell {
  value: number;
}

export interface HistogramCell {
  observe(value: number): void;
}

type Labels = Record<string, string>;

abstract class Family<Cell> {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  /** prom-client's Registry reads the aggregator when it merges registries. */
  readonly aggregator = "sum";
  protected readonly cells = new Map<string, { labels: Labels; cell: Cell }>();

  constructor(registry: Registry, name: string, help: string, labelNames: readonly string[]) {
    this.name = name;
    this.help = help;
    this.labelNames = labelNames;
    registry.registerMetric(this as never);
  }

  /** The series of these label values (in labelNames order), made on first use. */
  cell(...labelValues: string[]): Cell {
    const key = labelValues.join("\0");
    let entry = this.cells.get(key);
    if (!entry) {
      const labels: Labels = {};
      this.labelNames.forEach((labelName, index) => (labels[labelName] = labelValues[index] ?? ""));
      entry = { labels, cell: this.newCell() };
      this.cells.set(key, entry);
    }
    return entry.cell;
  }

  reset(): void {
    this.cells.clear();
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
        const index = bounds.findIndex((bound) => value <= bound);
        if (index >= 0) cell.counts[index]!++;
      },
    };
    return cell;
  }

  get(): Snapshot {
    const values: Snapshot["values"] = [];
    for (const { labels, cell } of this.cells.values()) {
      let cumulative = 0;
      this.#bounds.forEach((bound, index) => {
        cumulative += cell.counts[index]!;
        values.push({ metricName: `${this.name}_bucket`, labels: { le: bound, ...labels }, value: cumulative });
      });
      values.push({ metricName: `${this.name}_bucket`, labels: { le: "+Inf", ...labels }, value: cell.count });
      values.push({ metricName: `${this.name}_sum`, labels, value: cell.sum });
      values.push({ metricName: `${this.name}_count`, labels, value: cell.count });
    }
    return { name: this.name, help: this.help, type: "histogram", values, aggregator: "sum" };
  }
}
