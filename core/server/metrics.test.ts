import { expect, test } from "bun:test";
import { Counter } from "prom-client";
import { ApiMetrics, checkShowHiddenMetricsForVersion } from "./metrics.ts";

const podList = { verb: "LIST", group: "", version: "v1", resource: "pods", subresource: "", scope: "namespace", dryRun: "" };

test("observe() adds to apiserver_request_total with kube's labels and the status code", async () => {
  const metrics = new ApiMetrics({ processMetrics: false });
  metrics.observe(podList, 200, 0.01);
  metrics.observe(podList, 200, 0.02);
  const { body } = await metrics.render();
  expect(body).toContain(
    'apiserver_request_total{verb="LIST",dry_run="",group="",version="v1",resource="pods",subresource="",scope="namespace",component="apiserver",code="200"} 2',
  );
  expect(body).toContain("# TYPE apiserver_request_total counter");
});

test("observe() records the duration in kube's histogram buckets", async () => {
  const metrics = new ApiMetrics({ processMetrics: false });
  metrics.observe({ ...podList, verb: "POST", dryRun: "All" }, 201, 0.3);
  const { body } = await metrics.render();
  const labels = 'verb="POST",dry_run="All",group="",version="v1",resource="pods",subresource="",scope="namespace",component="apiserver"';
  expect(body).toContain(`apiserver_request_duration_seconds_bucket{le="0.2",${labels}} 0`);
  expect(body).toContain(`apiserver_request_duration_seconds_bucket{le="0.4",${labels}} 1`);
  expect(body).toContain(`apiserver_request_duration_seconds_bucket{le="60",${labels}} 1`);
  expect(body).toContain(`apiserver_request_duration_seconds_count{${labels}} 1`);
});

test("observe() keeps each label set's series apart when label sets and codes alternate", async () => {
  const metrics = new ApiMetrics({ processMetrics: false });
  const podCreate = { ...podList, verb: "POST" };
  for (const [labels, code] of [[podCreate, 201], [podCreate, 409], [podList, 200], [podCreate, 201], [{ ...podCreate }, 201]] as const) {
    metrics.observe(labels, code, 0.01);
  }
  const { body } = await metrics.render();
  const series = (labels: typeof podList) =>
    `verb="${labels.verb}",dry_run="",group="",version="v1",resource="pods",subresource="",scope="namespace",component="apiserver"`;
  expect(body).toContain(`apiserver_request_total{${series(podCreate)},code="201"} 3`);
  expect(body).toContain(`apiserver_request_total{${series(podCreate)},code="409"} 1`);
  expect(body).toContain(`apiserver_request_total{${series(podList)},code="200"} 1`);
  expect(body).toContain(`apiserver_request_duration_seconds_count{${series(podCreate)}} 4`);
  expect(body).toContain(`apiserver_request_duration_seconds_count{${series(podList)}} 1`);
});

test("startRequest() counts in-flight requests per kind until finishRequest()", async () => {
  const metrics = new ApiMetrics({ processMetrics: false });
  metrics.startRequest("mutating");
  metrics.startRequest("mutating");
  expect((await metrics.render()).body).toContain('apiserver_current_inflight_requests{request_kind="mutating"} 2');
  metrics.finishRequest("mutating");
  const { body } = await metrics.render();
  expect(body).toContain('apiserver_current_inflight_requests{request_kind="mutating"} 1');
  expect(body).toContain('apiserver_current_inflight_requests{request_kind="readOnly"} 0');
});

test("render() includes process metrics and uses the Prometheus text content type", async () => {
  const { contentType, body } = await new ApiMetrics().render();
  expect(contentType).toStartWith("text/plain; version=0.0.4");
  expect(body).toContain("process_cpu_user_seconds_total");
});

test("metrics registered on the registry by other parts are rendered too", async () => {
  const metrics = new ApiMetrics({ processMetrics: false });
  new Counter({ name: "apiserver_admission_step_admission_duration_seconds_count", help: "extra", registers: [metrics.registry] }).inc();
  expect((await metrics.render()).body).toContain("apiserver_admission_step_admission_duration_seconds_count 1");
});

test("validateShowHiddenMetricsVersion: only the previous minor release (1.25) is accepted", () => {
  expect(() => checkShowHiddenMetricsForVersion("")).not.toThrow();
  expect(() => checkShowHiddenMetricsForVersion("1.25")).not.toThrow();
  expect(() => checkShowHiddenMetricsForVersion("1.24")).toThrow(
    "--show-hidden-metrics-for-version must be omitted or have the value '1.25'. Only the previous minor version is allowed",
  );
});
