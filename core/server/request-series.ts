/**
 * kube's per-request series (apiserver_request_total and apiserver_request_duration_seconds) kept per label set,
 * each set found by one key joined from its values. prom-client validates and hashes the label object on every
 * inc() and observe(), which cost more than the rest of a small request's bookkeeping. The registry renders these
 * series exactly as it renders prom-client's Counter and Histogram (request-series.test.ts compares the two).
 */
import type { Metric, Registry } from "prom-client";

/** The type names the registry prints (prom-client's typings declare a numeric enum that is not what it uses). */
type MetricType = "counter" | "histogram";

type Labels = Record<string, string>;

interface Series {
  labels: Labels;
  /** Requests per status code, in the order the codes were first seen. */
  codes: Map<number, number>;
  /** Observations per bucket (not cumulative), one per upper bound. */
  buckets: number[];
  sum: number;
  count: number;
}

/** One value of a metric, as prom-client's registry reads it from `get()`. */
interface Sample {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/** What prom-client's Registry reads from a registered metric. */
interface RegisteredMetric {
  name: string;
  help: string;
  type: MetricType;
  aggregator: "sum";
  get(): Promise<{ name: string; help: string; type: MetricType; values: Sample[]; aggregator: "sum" }>;
  reset(): void;
}

export interface RequestSeriesOptions {
  counter: { name: string; help: string };
  histogram: { name: string; help: string; buckets: number[] };
}

export class RequestSeries {
  #series = new Map<string, Series>();
  #bounds: number[];

  constructor(registry: Registry, options: RequestSeriesOptions) {
    this.#bounds = options.histogram.buckets;
    const metric = (name: string, help: string, type: MetricType, values: () => Sample[]): RegisteredMetric => ({
      name,
      help,
      type,
      aggregator: "sum",
      get: () => Promise.resolve({ name, help, type, values: values(), aggregator: "sum" }),
      reset: () => this.#series.clear(),
    });
    // The registry takes any object with prom-client's metric shape; its type names only prom-client's classes.
    const register = (m: RegisteredMetric) => registry.registerMetric(m as unknown as Metric);
    register(metric(options.counter.name, options.counter.help, "counter", () => this.#counterSamples()));
    register(metric(options.histogram.name, options.histogram.help, "histogram", () => this.#histogramSamples(options.histogram.name)));
  }

  /**
   * Records one request of the label set `key` names; `labels` makes that set's labels (in their rendered order)
   * the first time the key is seen.
   */
  record(key: string, labels: () => Labels, code: number, seconds: number): void {
    let series = this.#series.get(key);
    if (!series) {
      series = { labels: labels(), codes: new Map(), buckets: this.#bounds.map(() => 0), sum: 0, count: 0 };
      this.#series.set(key, series);
    }
    series.codes.set(code, (series.codes.get(code) ?? 0) + 1);
    // prom-client's findBound: the first bucket whose upper bound is at least the value; above all, only +Inf.
    const bucket = this.#bounds.findIndex((bound) => seconds <= bound);
    if (bucket >= 0) series.buckets[bucket]!++;
    series.sum += seconds;
    series.count++;
  }

  #counterSamples(): Sample[] {
    const samples: Sample[] = [];
    for (const series of this.#series.values()) {
      for (const [code, value] of series.codes) samples.push({ labels: { ...series.labels, code: String(code) }, value });
    }
    return samples;
  }

  /** prom-client's Histogram order: per label set its cumulative buckets (`le` first), +Inf, _sum and _count. */
  #histogramSamples(name: string): Sample[] {
    const samples: Sample[] = [];
    for (const series of this.#series.values()) {
      let cumulative = 0;
      this.#bounds.forEach((bound, index) => {
        cumulative += series.buckets[index]!;
        samples.push({ labels: { le: bound, ...series.labels }, value: cumulative, metricName: `${name}_bucket` });
      });
      samples.push({ labels: { le: "+Inf", ...series.labels }, value: series.count, metricName: `${name}_bucket` });
      samples.push({ labels: { ...series.labels }, value: series.sum, metricName: `${name}_sum` });
      samples.push({ labels: { ...series.labels }, value: series.count, metricName: `${name}_count` });
    }
    return samples;
  }
}
