/**
 * Node built-in modules loaded at their first use. Loading one builds its classes and functions in the JS heap and
 * sets up its native side; in a trivial Bun TLS server node:http and node:https took ~1.5 MiB of resident memory,
 * node:http2 ~0.9 more, node:zlib ~3.7 (bench/profiles/memory.md). Under Bun an idle server needs none of them: its
 * HTTP/1.x is kubun's own (_http1-connection.ts) over node:tls, HTTP/2 starts with the first h2 connection, the https
 * clients (webhooks, the aggregator, component checks) with their first call, gzip with the first compressed answer
 * or rotated audit log.
 */
import type * as Http from "node:http";
import type * as Http2 from "node:http2";
import type * as Https from "node:https";
import type * as Zlib from "node:zlib";
import { lazyModule } from "./lazy-module.ts";

export const nodeHttp = lazyModule<typeof Http>(() => require("node:http"), import.meta.url, "node:http");
export const nodeHttps = lazyModule<typeof Https>(() => require("node:https"), import.meta.url, "node:https");
export const nodeHttp2 = lazyModule<typeof Http2>(() => require("node:http2"), import.meta.url, "node:http2");
export const nodeZlib = lazyModule<typeof Zlib>(() => require("node:zlib"), import.meta.url, "node:zlib");
