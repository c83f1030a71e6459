/**
 * The one logger: kube-apiserver's klog verbosity (`-v`) and `--logging-format` text|json
 * (k8s.io/component-base/logs). Text lines carry klog's header (`I1125 20:45:01.123456   12345 name] message`);
 * JSON lines carry the keys of component-base/logs/json's NewJSONLogger (ts in epoch milliseconds, logger, msg,
 * v for info lines, err for errors).
 */
import process from "node:process";

export type LogFormat = "text" | "json";
export const LOG_FORMATS: readonly LogFormat[] = ["json", "text"];

type Severity = "I" | "W" | "E";
export type LogValues = Record<string, unknown>;

export interface Logger {
  /** klog.InfoS: shown at every verbosity. */
  info(message: string, values?: LogValues): void;
  /** klog.Warning. */
  warning(message: string, values?: LogValues): void;
  /** klog.ErrorS: the error's message (and its causes) under `err`. */
  error(message: string, error?: unknown, values?: LogValues): void;
  /** klog.V(level).InfoS: shown only when `-v` is at least level. */
  v(level: number): { enabled: boolean; info(message: string, values?: LogValues): void };
  /** A logger whose lines name a part of the server (klog's LoggerWithName). */
  named(name: string): Logger;
}

interface Settings {
  verbosity: number;
  format: LogFormat;
  write: (line: string) => void;
  now: () => Date;
  /**
   * The local time zone is UTC (local-zone.ts): the header then reads the UTC fields, the same numbers, without the
   * ICU time-zone data that the local-time methods load.
   */
  localTimeIsUtc: boolean;
}

const DEFAULTS: Settings = {
  verbosity: 0,
  format: "text",
  write: (line) => void process.stderr.write(line + "\n"),
  now: () => new Date(),
  localTimeIsUtc: false,
};
const settings: Settings = { ...DEFAULTS };

/** Applies `-v` and `--logging-format`; tests may also redirect the output and fix the clock. */
export function configureLogging(changes: Partial<Settings>): void {
  Object.assign(settings, changes);
}

/** Back to stderr, text, `-v=0` and the real clock. */
export function resetLogging(): void {
  Object.assign(settings, DEFAULTS);
}

/** An error's message followed by its causes, as Go's wrapped errors print. */
export function errorText(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e !== undefined && depth < 8; depth++) {
    parts.push(e instanceof Error ? e.message : String(e));
    e = e instanceof Error ? e.cause : undefined;
  }
  return parts.join(": ");
}

function textValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  return JSON.stringify(value) ?? String(value);
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/**
 * Month, day, hours, minutes, seconds of klog's header (formatHeader), which prints local time. Milliseconds are the
 * same in every zone.
 */
function localFields(t: Date): number[] {
  return settings.localTimeIsUtc
    ? [t.getUTCMonth() + 1, t.getUTCDate(), t.getUTCHours(), t.getUTCMinutes(), t.getUTCSeconds()]
    : [t.getMonth() + 1, t.getDate(), t.getHours(), t.getMinutes(), t.getSeconds()];
}

function textLine(severity: Severity, name: string, message: string, values: LogValues): string {
  const t = settings.now();
  const [month, day, hours, minutes, seconds] = localFields(t).map((field) => pad(field));
  const micros = pad(t.getUTCMilliseconds(), 3) + "000";
  const header = `${severity}${month}${day} ${hours}:${minutes}:${seconds}.${micros}` +
    ` ${String(process.pid).padStart(7)} ${name}]`;
  const pairs = Object.entries(values).map(([key, value]) => ` ${key}=${textValue(value)}`).join("");
  return `${header} ${message}${pairs}`;
}

function jsonLine(name: string, message: string, level: number | undefined, error: unknown, values: LogValues): string {
  const entry: Record<string, unknown> = { ts: settings.now().getTime(), logger: name, msg: message };
  if (level !== undefined) entry.v = level;
  if (error !== undefined) entry.err = errorText(error);
  return JSON.stringify({ ...entry, ...values });
}

function emit(severity: Severity, name: string, message: string, level: number | undefined, error: unknown, values: LogValues): void {
  if (settings.format === "json") {
    settings.write(jsonLine(name, message, level, error, values));
    return;
  }
  const withError = error === undefined ? values : { ...values, err: errorText(error) };
  settings.write(textLine(severity, name, message, withError));
}

export function logger(name: string): Logger {
  return {
    info: (message, values = {}) => emit("I", name, message, 0, undefined, values),
    warning: (message, values = {}) => emit("W", name, message, 0, undefined, values),
    error: (message, error, values = {}) => emit("E", name, message, undefined, error, values),
    v(level) {
      return {
        // Read at each use, so a V logger kept across requests follows -v.
        get enabled() {
          return settings.verbosity >= level;
        },
        info(message, values = {}) {
          if (this.enabled) emit("I", name, message, level, undefined, values);
        },
      };
    },
    named: (child) => logger(`${name}/${child}`),
  };
}

/** component-base/logs' Validate for the format: kube's field error text, or undefined when it is supported. */
export function validateLogFormat(format: string): string | undefined {
  return (LOG_FORMATS as readonly string[]).includes(format)
    ? undefined
    : `format: Invalid value: ${JSON.stringify(format)}: Unsupported log format`;
}
