import { afterEach, beforeEach, expect, test } from "bun:test";
import process from "node:process";
import { configureLogging, errorText, logger, validateLogFormat } from "./mod.ts";
import { captureLogs } from "./testing.ts";

const at = new Date(2026, 10, 25, 20, 45, 1, 123);
let capture: ReturnType<typeof captureLogs>;
let lines: string[];
beforeEach(() => {
  capture = captureLogs();
  lines = capture.lines;
  configureLogging({ now: () => at });
});
afterEach(() => capture.restore());

test("text lines carry klog's header: severity, mmdd, time with microseconds, pid and the logger's name", () => {
  logger("apiserver").info("serving", { port: 6443, dir: "/var/kubun" });
  logger("storage").warning("slow");
  logger("storage").error("write failed", new Error("disk full"));
  const pid = String(process.pid).padStart(7);
  expect(lines).toEqual([
    `I1125 20:45:01.123000 ${pid} apiserver] serving port=6443 dir="/var/kubun"`,
    `W1125 20:45:01.123000 ${pid} storage] slow`,
    `E1125 20:45:01.123000 ${pid} storage] write failed err="disk full"`,
  ]);
});

test("with a UTC local zone (localTimeIsUtc) the header prints the UTC fields, which are then the local ones", () => {
  configureLogging({ now: () => new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 60)), localTimeIsUtc: true });
  logger("apiserver").info("serving");
  expect(lines).toEqual([`I0102 03:04:05.060000 ${String(process.pid).padStart(7)} apiserver] serving`]);
});

test("--logging-format=json writes NewJSONLogger's keys: ts in epoch milliseconds, logger, msg, v for info, err for errors", () => {
  configureLogging({ format: "json" });
  logger("apiserver").info("serving", { port: 6443 });
  logger("apiserver").error("failed", new Error("boom"));
  expect(lines.map((line) => JSON.parse(line))).toEqual([
    { ts: at.getTime(), logger: "apiserver", msg: "serving", v: 0, port: 6443 },
    { ts: at.getTime(), logger: "apiserver", msg: "failed", err: "boom" },
  ]);
});

test("V(level) lines appear only when -v is at least the level, as klog.V(n).Enabled()", () => {
  const log = logger("httplog");
  const kept = log.v(3);
  log.v(3).info("hidden");
  expect(log.v(3).enabled).toBe(false);
  configureLogging({ verbosity: 3 });
  expect(kept.enabled).toBe(true);
  log.v(3).info("shown");
  log.v(4).info("too verbose");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toEndWith("httplog] shown");
});

test("an error's causes are printed after it, as Go's wrapped errors", () => {
  const error = new Error("reading kubun.db", { cause: new Error("permission denied") });
  expect(errorText(error)).toBe("reading kubun.db: permission denied");
  expect(errorText("plain")).toBe("plain");
});

test("named() loggers name the part of the server", () => {
  logger("controller-manager").named("deployment").info("synced");
  expect(lines[0]).toEndWith("controller-manager/deployment] synced");
});

test("validateLogFormat() accepts json and text and words other formats as component-base/logs' Validate", () => {
  expect(validateLogFormat("text")).toBeUndefined();
  expect(validateLogFormat("json")).toBeUndefined();
  expect(validateLogFormat("xml")).toBe('format: Invalid value: "xml": Unsupported log format');
});
