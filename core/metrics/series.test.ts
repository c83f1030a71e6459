import { expect, test } from "bun:test";
import { Registry } from "prom-client";
import { CounterSeries, HistogramSeries, TimingRatioHistogramSeries } from "./series.ts";

test("counter and histogram cells print in prom-client's text format, buckets cumulative", async () => {
  const registry = new Registry();
  new CounterSeries(registry, "x_total", "help", ["a", "b"]).cell("1", "2").value += 3;
  const histogram = new HistogramSeries(registry, "h", "help", ["a"], [1, 5]).cell("z");
  for (const value of [0.5, 3, 9]) histogram.observe(value);
  const text = await registry.metrics();
  expect(text).toContain('# TYPE x_total counter\nx_total{a="1",b="2"} 3');
  expect(text).toContain(
    'h_bucket{le="1",a="z"} 1\nh_bucket{le="5",a="z"} 2\nh_bucket{le="+Inf",a="z"} 3\nh_sum{a="z"} 12.5\nh_count{a="z"} 3',
  );
});

test("a timing ratio histogram counts the nanoseconds the ratio spent in each bucket (kube's timingHistogram)", async () => {
  let now = 0;
  const registry = new Registry();
  const series = new TimingRatioHistogramSeries(registry, "t", "help", ["l"], [0.5, 1], {
    clock: () => now,
    constLabels: { phase: "executing" },
  });
  const cell = series.cell("a");
  cell.setDenominator(2);
  now = 1;
  cell.setNumerator(1);
  now = 3;
  cell.setNumerator(2);
  now = 4;
  // 0 for 1 ms and 0.5 for 2 ms (≤ 0.5), then 1 for 1 ms up to the scrape.
  const text = await registry.metrics();
  expect(text).toContain(
    't_bucket{le="0.5",phase="executing",l="a"} 3000000\nt_bucket{le="1",phase="executing",l="a"} 4000000\n' +
      't_bucket{le="+Inf",phase="executing",l="a"} 4000000\nt_sum{phase="executing",l="a"} 2000000\nt_count{phase="executing",l="a"} 4000000',
  );
});

test("cell() finds one series per label values and forgets them at reset()", async () => {
  const registry = new Registry();
  const counter = new CounterSeries(registry, "c_total", "help", ["a", "b"]);
  counter.cell("x", "y").value += 1;
  counter.cell("x", "y").value += 1;
  counter.cell("x", "z").value += 5;
  expect(await registry.metrics()).toContain('c_total{a="x",b="y"} 2\nc_total{a="x",b="z"} 5');
  counter.reset();
  counter.cell("x", "y").value += 7;
  const text = await registry.metrics();
  expect(text).toContain('c_total{a="x",b="y"} 7');
  expect(text).not.toContain('b="z"');
});

test("cell(): label values that hold the joining characters still name separate series", async () => {
  const registry = new Registry();
  const counter = new CounterSeries(registry, "j_total", "help", ["a", "b"]);
  counter.cell("x\0", "y").value += 1;
  counter.cell("x", "\0y").value += 2;
  counter.cell("1:x", "").value += 3;
  counter.cell("", "1:x").value += 4;
  const text = await registry.metrics();
  for (const count of [1, 2, 3, 4]) expect(text).toMatch(new RegExp(`\\} ${count}\\n`));
});
