/**
 * The /metrics registry with kube-apiserver's request metrics (names, labels, help text and buckets
 * of k8s.io/apiserver pkg/endpoints/metrics), plus process metrics. Other parts register their own
 * series on `registry`.
 */
import { Counter, Gauge, Registry } from "../runtime/prom-client.ts";
import { CounterSeries, type HistogramCell, HistogramSeries, type ValueCell } from "../metrics/series.ts";
import { collectProcessMetrics } from "./process-metrics.ts";

export interface RequestInfoLabels {
  /** kube's metric verb: GET, LIST, WATCH, POST, PUT, PATCH, APPLY, DELETE, DELETECOLLECTION, CONNECT. */
  verb: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  /** "cluster", "namespace", "resource" or "" for non-resource requests. */
  scope: string;
  /** The request's dryRun values joined with ","; "" when not a dry run. */
  dryRun: string;
}

export type RequestKind = "readOnly" | "mutating";

/** The series of one label set: its duration histogram and its count per response code. */
interface RequestSeries {
  labels: RequestInfoLabels;
  duration: HistogramCell;
  countByCode: Map<number, ValueCell>;
}

function sameLabels(a: RequestInfoLabels, b: RequestInfoLabels): boolean {
  return a.verb === b.verb && a.resource === b.resource && a.group === b.group && a.version === b.version &&
    a.subresource === b.subresource && a.scope === b.scope && a.dryRun === b.dryRun;
}

const REQUEST_LABELS = ["verb", "dry_run", "group", "version", "resource", "subresource", "scope", "component"] as const;
const REQUEST_DURATION_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
const COMPONENT = "apiserver";

export class ApiMetrics {
  /** Where every kubun metric is registered; not prom-client's global registry. */
  readonly registry = new Registry();
  // Found by their label values one map level at a time (prom-client validated and hashed the label object twice per
  // request; a key joined from the values made a dozen strings per request).
  #requestCounts: CounterSeries;
  #requestDurations: HistogramSeries;
  #inflightCounts: Record<RequestKind, number> = { readOnly: 0, mutating: 0 };
  /** observe()'s label values, filled anew on each call: the series lookups only read them (cellOf). */
  #requestLabelValues: string[] = ["", "", "", "", "", "", "", COMPONENT];
  /**
   * The last request's series: requests come in runs of one label set (a client creating or reading one resource), and
   * such a run finds its series by seven comparisons instead of two walks of seven and eight map levels.
   */
  #lastSeries: RequestSeries | undefined;
  #terminations: Counter<Exclude<(typeof REQUEST_LABELS)[number], "dry_run"> | "code">;
  #deprecatedApis: Gauge<"group" | "version" | "resource" | "subresource" | "removed_release">;

  constructor(options: { processMetrics?: boolean } = {}) {
    const registers = [this.registry];
    this.#requestCounts = new CounterSeries(
      this.registry,
      "apiserver_request_total",
      "[STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.",
      [...REQUEST_LABELS, "code"],
    );
    this.#requestDurations = new HistogramSeries(
      this.registry,
      "apiserver_request_duration_seconds",
      "[STABLE] Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.",
      REQUEST_LABELS,
      REQUEST_DURATION_BUCKETS,
    );
    const inflightCounts = this.#inflightCounts;
    new Gauge({
      name: "apiserver_current_inflight_requests",
      help: "[STABLE] Maximal number of currently used inflight request limit of this apiserver per request kind in last second.",
      labelNames: ["request_kind"],
      registers,
      // The counts live in plain numbers (a labelled inc and dec per request hash their labels); read at each scrape.
      collect() {
        for (const [kind, count] of Object.entries(inflightCounts)) this.set({ request_kind: kind }, count);
      },
    });
    this.#terminations = new Counter({
      name: "apiserver_request_terminations_total",
      help: "[ALPHA] Number of requests which apiserver terminated in self-defense.",
      labelNames: ["verb", "group", "version", "resource", "subresource", "scope", "component", "code"],
      registers,
    });
    this.#deprecatedApis = new Gauge({
      name: "apiserver_requested_deprecated_apis",
      help:
        "[STABLE] Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.",
      labelNames: ["group", "version", "resource", "subresource", "removed_release"],
      registers,
    });
    if (options.processMetrics !== false) collectProcessMetrics(this.registry);
  }

  /** Records one finished request. */
  observe(info: RequestInfoLabels, code: number, seconds: number): void {
    let series = this.#lastSeries;
    if (series === undefined || !sameLabels(series.labels, info)) {
      series = { labels: info, duration: this.#requestDurations.cellOf(this.#labelValues(info)), countByCode: new Map() };
      this.#lastSeries = series;
    }
    series.duration.observe(seconds);
    let count = series.countByCode.get(code);
    if (count === undefined) {
      const values = this.#labelValues(info);
      values.push(String(code));
      count = this.#requestCounts.cellOf(values);
      series.countByCode.set(code, count);
    }
    count.value++;
  }

  /** The duration histogram's label values of `info`, in the list observe() fills anew each time. */
  #labelValues(info: RequestInfoLabels): string[] {
    const values = this.#requestLabelValues;
    values[0] = info.verb;
    values[1] = info.dryRun;
    values[2] = info.group;
    values[3] = info.version;
    values[4] = info.resource;
    values[5] = info.subresource;
    values[6] = info.scope;
    values.length = REQUEST_LABELS.length;
    return values;
  }

  /** A request the server refused in self-defense, e.g. a 429 of the in-flight limits (kube's RecordRequestTermination). */
  terminated(info: RequestInfoLabels, code: number): void {
    const { verb, group, version, resource, subresource, scope } = info;
    this.#terminations.inc({ verb, group, version, resource, subresource, scope, component: COMPONENT, code: String(code) });
  }

  /** Marks a deprecated API as requested (MonitorRequest sets the gauge to 1). */
  requestedDeprecatedApi(info: Pick<RequestInfoLabels, "group" | "version" | "resource" | "subresource">, removedRelease: string): void {
    this.#deprecatedApis.set({ ...info, removed_release: removedRelease }, 1);
  }

  /**
   * Counts a request of `kind` as in flight until finishRequest is called for it once: two calls on plain numbers,
   * where a closure per request to finish it made a function and its scope.
   */
  startRequest(kind: RequestKind): void {
    this.#inflightCounts[kind]++;
  }

  finishRequest(kind: RequestKind): void {
    this.#inflightCounts[kind]--;
  }

  /** The Prometheus text exposition of every registered metric. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/**
 * component-base's validateShowHiddenMetricsVersion: only the release before 1.26 may be named. kube hides a
 * metric deprecated two releases back; none of the metrics kubun serves is deprecated, so none is hidden.
 */
export function checkShowHiddenMetricsForVersion(version: string): void {
  const previous = "1.25";
  if (version !== "" && version !== previous) {
    throw new Error(
      `--show-hidden-metrics-for-version must be omitted or have the value '${previous}'. Only the previous minor version is allowed`,
    );
  }
}
