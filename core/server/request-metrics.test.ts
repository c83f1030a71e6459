import { expect, test } from "bun:test";
import { Counter, Histogram, Registry } from "prom-client";
import { ApiMetrics } from "./metrics.ts";

const LABELS = ["verb", "dry_run", "group", "version", "resource", "subresource", "scope", "component"] as const;
const BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
const TOTAL = "apiserver_request_total";
const DURATION = "apiserver_request_duration_seconds";

test("kube's request metrics (MonitorRequest: apiserver_request_total and apiserver_request_duration_seconds) print as prom-client's Counter and Histogram print the same requests", async () => {
  const metrics = new ApiMetrics({ processMetrics: false });
  const theirs = new Registry();
  const counter = new Counter({ name: TOTAL, help: "help", labelNames: [...LABELS, "code"], registers: [theirs] });
  const histogram = new Histogram({ name: DURATION, help: "help", labelNames: LABELS, buckets: BUCKETS, registers: [theirs] });
  const requests: [verb: string, resource: string, code: number, seconds: number][] = [
    ["GET", "pods", 200, 0.001],
    ["LIST", "pods", 200, 0.05],
    ["GET", "pods", 404, 0.005],
    ["GET", "pods", 200, 3],
    ["GET", 'a"b\\c', 500, 0.2],
    // Values that run together when joined must stay two label sets.
    ["GET", "1", 200, 0.1],
    ["GET1", "", 200, 0.1],
  ];
  for (const [verb, resource, code, seconds] of requests) {
    const info = { verb, group: "", version: "v1", resource, subresource: "", scope: "namespace", dryRun: "" };
    metrics.observe(info, code, seconds);
    const labels = { verb, dry_run: "", group: "", version: "v1", resource, subresource: "", scope: "namespace", component: "apiserver" };
    counter.inc({ ...labels, code: String(code) });
    histogram.observe(labels, seconds);
  }
  // Only the help texts differ; the series must match line for line, in prom-client's order.
  const samples = async (registry: Registry, name: string) =>
    (await registry.getSingleMetricAsString(name)).split("\n").filter((line) => !line.startsWith("# HELP"));
  expect(await samples(metrics.registry, TOTAL)).toContain(
    'apiserver_request_total{verb="GET",dry_run="",group="",version="v1",resource="pods",subresource="",scope="namespace",component="apiserver",code="404"} 1',
  );
  for (const name of [TOTAL, DURATION]) expect(await samples(metrics.registry, name)).toEqual(await samples(theirs, name));
});

test("the registry's reset empties the request series as it empties prom-client's", async () => {
  const metrics = new ApiMetrics({ processMetrics: false });
  metrics.observe({ verb: "GET", group: "", version: "v1", resource: "pods", subresource: "", scope: "namespace", dryRun: "" }, 200, 0.01);
  metrics.registry.resetMetrics();
  expect((await metrics.render()).body).not.toContain("verb=");
});
