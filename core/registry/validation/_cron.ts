/**
 * The standard cron parser kube uses for CronJob schedules (robfig/cron v3 ParseStandard: five fields or a
 * descriptor), returning its error text or undefined. Only validation: schedules are not evaluated here.
 */
import { goQuote } from "../../api/_go-text.ts";

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const MONTH_NAMES = Object.fromEntries(["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"].map((n, i) => [n, i + 1]));
const DAY_NAMES = Object.fromEntries(["sun", "mon", "tue", "wed", "thu", "fri", "sat"].map((n, i) => [n, i]));
const FIELD_BOUNDS: Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTH_NAMES },
  { min: 0, max: 6, names: DAY_NAMES },
];
const DESCRIPTORS = new Set(["@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"]);
const GO_DURATION = /^[-+]?(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+$/;

class CronError extends Error {}

/** strconv.Atoi followed by robfig's negative check. */
function parseInt(expr: string): number {
  if (!/^[+-]?[0-9]+$/.test(expr)) throw new CronError(`failed to parse int from ${expr}: strconv.Atoi: parsing ${goQuote(expr)}: invalid syntax`);
  const num = Number(expr);
  if (num < 0) throw new CronError(`negative number (${num}) not allowed: ${expr}`);
  return num;
}

function parseIntOrName(expr: string, names?: Record<string, number>): number {
  const named = names?.[expr.toLowerCase()];
  return named ?? parseInt(expr);
}

function checkRange(expr: string, r: Bounds): void {
  const rangeAndStep = expr.split("/");
  const lowAndHigh = rangeAndStep[0].split("-");
  let start: number;
  let end: number;
  if (lowAndHigh[0] === "*" || lowAndHigh[0] === "?") {
    start = r.min;
    end = r.max;
  } else {
    start = parseIntOrName(lowAndHigh[0], r.names);
    if (lowAndHigh.length > 2) throw new CronError(`too many hyphens: ${expr}`);
    end = lowAndHigh.length === 2 ? parseIntOrName(lowAndHigh[1], r.names) : start;
  }
  let step = 1;
  if (rangeAndStep.length > 2) throw new CronError(`too many slashes: ${expr}`);
  if (rangeAndStep.length === 2) {
    step = parseInt(rangeAndStep[1]);
    if (lowAndHigh.length === 1) end = r.max;
  }
  if (start < r.min) throw new CronError(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max) throw new CronError(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end) throw new CronError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronError(`step of range should be a positive number: ${expr}`);
}

function checkDescriptor(spec: string): void {
  if (DESCRIPTORS.has(spec)) return;
  if (spec.startsWith("@every ")) {
    const duration = spec.slice("@every ".length);
    if (duration !== "0" && !GO_DURATION.test(duration)) throw new CronError(`failed to parse duration ${spec}: time: invalid duration ${goQuote(duration)}`);
    return;
  }
  throw new CronError(`unrecognized descriptor: ${spec}`);
}

function checkSchedule(input: string, isTimeZone: (name: string) => boolean): void {
  let spec = input;
  if (spec.length === 0) throw new CronError("empty spec string");
  if (spec.startsWith("TZ=") || spec.startsWith("CRON_TZ=")) {
    const space = spec.indexOf(" ");
    const zone = spec.slice(spec.indexOf("=") + 1, space < 0 ? undefined : space);
    if (!isTimeZone(zone)) throw new CronError(`provided bad location ${zone}: unknown time zone ${zone}`);
    spec = space < 0 ? "" : spec.slice(space).trim();
  }
  if (spec.startsWith("@")) return checkDescriptor(spec);
  const fields = spec.split(/\s+/).filter((f) => f !== "");
  if (fields.length !== 5) throw new CronError(`expected exactly 5 fields, found ${fields.length}: [${fields.join(" ")}]`);
  fields.forEach((field, i) => {
    for (const expr of field.split(",").filter((e) => e !== "")) checkRange(expr, FIELD_BOUNDS[i]);
  });
}

/** The parser's error message for an unusable schedule, or undefined when it parses. */
export function cronScheduleError(spec: string, isTimeZone: (name: string) => boolean): string | undefined {
  try {
    checkSchedule(spec, isTimeZone);
    return undefined;
  } catch (e) {
    if (e instanceof CronError) return e.message;
    throw e;
  }
}
