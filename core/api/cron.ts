/**
 * CronJob schedules, the one implementation, with robfig/cron v3's semantics as kube uses it (ParseStandard):
 * five fields (minute hour day-of-month month day-of-week; `*`, `?`, lists, ranges, steps, JAN-DEC and
 * SUN-SAT names), the descriptors @yearly @annually @monthly @weekly @daily @midnight @hourly and
 * `@every <Go duration>`, and a `CRON_TZ=<zone>` or `TZ=<zone>` prefix. Errors carry robfig's texts, which
 * kube's validation shows. Fields are read in the schedule's IANA time zone (UTC by default, as
 * kube-controller-manager runs in UTC).
 */
import { goQuote } from "./go-text.ts";
import { parseGoDuration } from "./go-duration.ts";

export class CronSyntaxError extends Error {}

export interface CronSchedule {
  timeZone: string;
  /** `@every`: the fixed delay in ms (whole seconds, at least one, as robfig's Every). */
  everyMs?: number;
  minutes: Set<number>;
  hours: Set<number>;
  daysOfMonth: Set<number>;
  months: Set<number>;
  daysOfWeek: Set<number>;
  /** robfig's starBit: when either day field is `*` or `?`, both must match; otherwise either may. */
  dayStar: boolean;
}

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const MONTH_NAMES = Object.fromEntries(
  ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"].map((n, i) => [n, i + 1]),
);
const DAY_NAMES = Object.fromEntries(["sun", "mon", "tue", "wed", "thu", "fri", "sat"].map((n, i) => [n, i]));
const FIELD_BOUNDS: Bounds[] = [{ min: 0, max: 59 }, { min: 0, max: 23 }, { min: 1, max: 31 }, { min: 1, max: 12, names: MONTH_NAMES }, {
  min: 0,
  max: 6,
  names: DAY_NAMES,
}];
/** robfig's parseDescriptor, written as the five fields each one sets. */
const DESCRIPTORS: Record<string, string> = {
  "@yearly": "0 0 1 1 *",
  "@annually": "0 0 1 1 *",
  "@monthly": "0 0 1 * *",
  "@weekly": "0 0 * * 0",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@hourly": "0 * * * *",
};
const EVERY = "@every ";
const MINUTE_MS = 60_000;
/** robfig gives up five years after the start; this bounds the search the same way. */
const SEARCH_LIMIT_MS = 5 * 366 * 24 * 60 * MINUTE_MS;

/** Whether the IANA database (as the runtime's Intl knows it) has the zone; "" and UTC are always known. */
export function isKnownTimeZone(name: string): boolean {
  if (name === "UTC" || name === "") return true;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** strconv.Atoi followed by robfig's negative check. */
function parseNumber(expr: string): number {
  if (!/^[+-]?[0-9]+$/.test(expr)) {
    throw new CronSyntaxError(`failed to parse int from ${expr}: strconv.Atoi: parsing ${goQuote(expr)}: invalid syntax`);
  }
  const num = Number(expr);
  if (num < 0) throw new CronSyntaxError(`negative number (${num}) not allowed: ${expr}`);
  return num;
}

function parseNumberOrName(expr: string, names?: Record<string, number>): number {
  return names?.[expr.toLowerCase()] ?? parseNumber(expr);
}

/** robfig's getRange: the values one comma-separated part selects, and whether it sets the star bit. */
function parseRange(expr: string, r: Bounds, into: Set<number>): boolean {
  const rangeAndStep = expr.split("/");
  const lowAndHigh = rangeAndStep[0].split("-");
  let start: number;
  let end: number;
  let star = false;
  if (lowAndHigh[0] === "*" || lowAndHigh[0] === "?") {
    [start, end, star] = [r.min, r.max, true];
  } else {
    start = parseNumberOrName(lowAndHigh[0], r.names);
    if (lowAndHigh.length > 2) throw new CronSyntaxError(`too many hyphens: ${expr}`);
    end = lowAndHigh.length === 2 ? parseNumberOrName(lowAndHigh[1], r.names) : start;
  }
  let step = 1;
  if (rangeAndStep.length > 2) throw new CronSyntaxError(`too many slashes: ${expr}`);
  if (rangeAndStep.length === 2) {
    step = parseNumber(rangeAndStep[1]);
    // "N/step" means "N-max/step".
    if (lowAndHigh.length === 1) end = r.max;
    if (step > 1) star = false;
  }
  if (start < r.min) throw new CronSyntaxError(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max) throw new CronSyntaxError(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end) throw new CronSyntaxError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronSyntaxError(`step of range should be a positive number: ${expr}`);
  for (let v = start; v <= end; v += step) into.add(v);
  return star;
}

function parseField(field: string, r: Bounds): { values: Set<number>; star: boolean } {
  const values = new Set<number>();
  let star = false;
  for (const expr of field.split(",").filter((e) => e !== "")) star = parseRange(expr, r, values) || star;
  return { values, star };
}

function parseFields(spec: string, timeZone: string): CronSchedule {
  const fields = spec.split(/\s+/).filter((f) => f !== "");
  if (fields.length !== 5) throw new CronSyntaxError(`expected exactly 5 fields, found ${fields.length}: [${fields.join(" ")}]`);
  const [minutes, hours, dom, months, dow] = fields.map((field, i) => parseField(field, FIELD_BOUNDS[i]));
  return {
    timeZone,
    minutes: minutes.values,
    hours: hours.values,
    daysOfMonth: dom.values,
    months: months.values,
    daysOfWeek: dow.values,
    dayStar: dom.star || dow.star,
  };
}

function parseDescriptor(spec: string, timeZone: string): CronSchedule {
  if (spec in DESCRIPTORS) return parseFields(DESCRIPTORS[spec], timeZone);
  if (!spec.startsWith(EVERY)) throw new CronSyntaxError(`unrecognized descriptor: ${spec}`);
  let delayMs: number;
  try {
    delayMs = parseGoDuration(spec.slice(EVERY.length));
  } catch (error) {
    throw new CronSyntaxError(`failed to parse duration ${spec}: ${(error as Error).message}`);
  }
  // robfig's Every: at least a second, sub-second part dropped.
  const everyMs = Math.max(1000, delayMs - (delayMs % 1000));
  return { ...parseFields("* * * * *", timeZone), everyMs };
}

/** robfig/cron v3 ParseStandard; throws CronSyntaxError with robfig's message. */
export function parseCronSchedule(input: string, isTimeZone: (name: string) => boolean = isKnownTimeZone): CronSchedule {
  let spec = input;
  let timeZone = "UTC";
  if (spec.length === 0) throw new CronSyntaxError("empty spec string");
  if (spec.startsWith("TZ=") || spec.startsWith("CRON_TZ=")) {
    const space = spec.indexOf(" ");
    const zone = spec.slice(spec.indexOf("=") + 1, space < 0 ? undefined : space);
    if (!isTimeZone(zone)) throw new CronSyntaxError(`provided bad location ${zone}: unknown time zone ${zone}`);
    timeZone = zone || "UTC";
    spec = space < 0 ? "" : spec.slice(space).trim();
  }
  if (spec.startsWith("@")) return parseDescriptor(spec, timeZone);
  return parseFields(spec, timeZone);
}

/** The parser's error message for an unusable schedule, or undefined when it parses. */
export function cronScheduleError(spec: string, isTimeZone: (name: string) => boolean = isKnownTimeZone): string | undefined {
  try {
    parseCronSchedule(spec, isTimeZone);
    return undefined;
  } catch (e) {
    if (e instanceof CronSyntaxError) return e.message;
    throw e;
  }
}

/**
 * kube's formatSchedule (cronjob controllerv2): a schedule with its own TZ stays as it is; otherwise spec.timeZone,
 * when set, becomes a TZ= prefix.
 */
export function cronJobSchedule(schedule: string, timeZone?: string | null): CronSchedule {
  const spec = !schedule.includes("TZ") && timeZone ? `TZ=${timeZone} ${schedule}` : schedule;
  return parseCronSchedule(spec);
}

interface WallTime {
  month: number;
  day: number;
  weekday: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

function wallTime(ms: number, timeZone: string): WallTime {
  const date = new Date(ms);
  if (timeZone === "UTC") {
    return {
      month: date.getUTCMonth() + 1,
      day: date.getUTCDate(),
      weekday: date.getUTCDay(),
      hour: date.getUTCHours(),
      minute: date.getUTCMinutes(),
    };
  }
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      month: "numeric",
      day: "numeric",
      weekday: "short",
      hour: "numeric",
      minute: "numeric",
    });
    formatters.set(timeZone, formatter);
  }
  const parts = Object.fromEntries(formatter.formatToParts(date).map((p) => [p.type, p.value]));
  return {
    month: Number(parts.month),
    day: Number(parts.day),
    weekday: WEEKDAYS[parts.weekday],
    hour: Number(parts.hour),
    minute: Number(parts.minute),
  };
}

function dayMatches(schedule: CronSchedule, wall: WallTime): boolean {
  const dom = schedule.daysOfMonth.has(wall.day);
  const dow = schedule.daysOfWeek.has(wall.weekday);
  return schedule.dayStar ? dom && dow : dom || dow;
}

/** robfig's Schedule.Next: the first activation strictly after `after` (ms), or null within five years. */
export function nextScheduleTime(schedule: CronSchedule, after: number): number | null {
  if (schedule.everyMs !== undefined) return Math.floor(after / 1000) * 1000 + schedule.everyMs;
  const limit = after + SEARCH_LIMIT_MS;
  let t = Math.floor(after / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
  while (t <= limit) {
    const wall = wallTime(t, schedule.timeZone);
    if (!schedule.months.has(wall.month) || !dayMatches(schedule, wall)) {
      // To the next wall-clock day; an hour short when far away, so a 23-hour (DST) day cannot skip one.
      const toMidnight = 24 * 60 - (wall.hour * 60 + wall.minute);
      t += (toMidnight > 60 ? toMidnight - 60 : toMidnight) * MINUTE_MS;
    } else if (!schedule.hours.has(wall.hour)) {
      t += (60 - wall.minute) * MINUTE_MS;
    } else if (!schedule.minutes.has(wall.minute)) {
      t += MINUTE_MS;
    } else {
      return t;
    }
  }
  return null;
}

/** The latest activation in (earliest, now], and how many earlier ones were missed (kube's mostRecentScheduleTime). */
export function mostRecentScheduleTime(schedule: CronSchedule, earliest: number, now: number): { time: number | null; missed: number } {
  const first = nextScheduleTime(schedule, earliest);
  if (first === null || first > now) return { time: null, missed: 0 };
  if (schedule.everyMs !== undefined) {
    const missed = Math.floor((now - first) / schedule.everyMs);
    return { time: first + missed * schedule.everyMs, missed };
  }
  let time = first;
  let missed = 0;
  for (let t = nextScheduleTime(schedule, first); t !== null && t <= now; t = nextScheduleTime(schedule, t)) {
    missed++;
    time = t;
  }
  return { time, missed };
}
