/**
 * prom-client's Registry, Counter and Gauge, each from its own file rather than from the package's index: the index
 * also loads its Pushgateway, which loads node:http, node:https, node:url and node:zlib, its Summary (tdigest,
 * bintrees), its default metrics and its cluster aggregator; kubun uses none of them, and each was a cost to every
 * start (bench/profiles/memory.md; lazy-builtins.ts). The classes are the index's own (the same files).
 */
import type * as PromClient from "prom-client";
import { lazyModule } from "./lazy-module.ts";

function fromFile<T>(load: () => unknown, specifier: string): T {
  return lazyModule<T>(load, import.meta.url, specifier)();
}

export const Registry = fromFile<typeof PromClient.Registry>(() => require("prom-client/lib/registry.js"), "prom-client/lib/registry.js");
export type Registry = PromClient.Registry;
export const Counter = fromFile<typeof PromClient.Counter>(() => require("prom-client/lib/counter.js"), "prom-client/lib/counter.js");
export type Counter<T extends string = string> = PromClient.Counter<T>;
export const Gauge = fromFile<typeof PromClient.Gauge>(() => require("prom-client/lib/gauge.js"), "prom-client/lib/gauge.js");
export type Gauge<T extends string = string> = PromClient.Gauge<T>;
