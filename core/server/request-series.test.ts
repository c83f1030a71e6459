import { expect, test } from "bun:test";
import { Counter, Histogram, Registry } from "prom-client";
import { RequestSeries } from "./request-series.ts";

const LABELS = ["verb", "resource", "component"] as const;
const BUCKETS = [0.005, 0.1, 1];

/** The same requests through RequestSeries and through prom-client's Counter and Histogram. */
async function renderBoth(requests: [verb: string, resource: string, code: number, seconds: number][]) {
  const ours = new Registry();
  const series = new RequestSeries(ours, {
    counter: { name: "requests_total", help: "Requests." },
    histogram: { name: "request_seconds", help: "Latency.", buckets: BUCKETS },
  });
  const theirs = new Registry();
  const counter = new Counter({ name: "requests_total", help: "Requests.", labelNames: [...LABELS, "code"], registers: [theirs] });
  const histogram = new Histogram({ name: "request_seconds", help: "Latency.", labelNames: LABELS, buckets: BUCKETS, registers: [theirs] });
  for (const [verb, resource, code, seconds] of requests) {
    const labels = { verb, resource, component: "apiserver" };
    series.record(`${verb}/${resource}`, () => labels, code, seconds);
    counter.inc({ ...labels, code: String(code) });
    histogram.observe(labels, seconds);
  }
  return { ours: await ours.metrics(), theirs: await theirs.metrics() };
}

/** Exposition lines sorted: Prometheus gives the order of samples within a family no meaning. */
const sortedLines = (text: string) => text.split("\n").sort();

test("request series render as prom-client's Counter and Histogram render the same observations", async () => {
  const { ours, theirs } = await renderBoth([
    ["GET", "pods", 200, 0.001],
    ["LIST", "pods", 200, 0.05],
    ["GET", "pods", 404, 0.005],
    ["GET", "pods", 200, 3],
    ["GET", 'a"b\\c', 500, 0.2],
  ]);
  expect(ours).toContain('request_seconds_bucket{le="0.005",verb="GET",resource="pods",component="apiserver"} 2');
  expect(ours).toContain('request_seconds_bucket{le="+Inf",verb="GET",resource="pods",component="apiserver"} 3');
  expect(ours).toContain('requests_total{verb="GET",resource="pods",component="apiserver",code="404"} 1');
  expect(sortedLines(ours)).toEqual(sortedLines(theirs));
});

test("the registry's reset empties the request series as it empties prom-client's", async () => {
  const registry = new Registry();
  const series = new RequestSeries(registry, {
    counter: { name: "requests_total", help: "Requests." },
    histogram: { name: "request_seconds", help: "Latency.", buckets: BUCKETS },
  });
  series.record("k", () => ({ verb: "GET" }), 200, 0.01);
  registry.resetMetrics();
  expect(await registry.metrics()).not.toContain("verb=");
});
