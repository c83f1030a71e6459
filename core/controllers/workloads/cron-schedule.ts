/**
 * Standard 5-field cron schedules as kube's CronJob reads them (robfig/cron ParseStandard): minute hour
 * day-of-month month day-of-week, with *, ?, lists, ranges, steps, month and weekday names and the @yearly,
 * @monthly, @weekly, @daily, @midnight and @hourly shorthands. Times are UTC.
 */
export interface CronSchedule {
  minutes: Set<number>;
  hours: Set<number>;
  daysOfMonth: Set<number>;
  months: Set<number>;
  daysOfWeek: Set<number>;
  /** robfig: when either day field is `*`, both must match; otherwise either may. */
  dayStar: boolean;
}

const SHORTHANDS: Record<string, string> = {
  "@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *", "@weekly": "0 0 * * 0",
  "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *",
};
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
/** The search for the next time stops after this many minutes (about four years). */
const SEARCH_LIMIT_MINUTES = 4 * 366 * 24 * 60;

function parseValue(text: string, names: string[] | undefined, nameBase: number): number {
  const named = names?.indexOf(text.toLowerCase()) ?? -1;
  if (named >= 0) return named + nameBase;
  if (!/^\d+$/.test(text)) throw new Error(`failed to parse int from ${text}`);
  return Number(text);
}

function parseField(text: string, min: number, max: number, names?: string[], nameBase = 0): { values: Set<number>; star: boolean } {
  const values = new Set<number>();
  let star = false;
  for (const part of text.split(",")) {
    const [range, stepText] = part.split("/");
    const step = stepText === undefined ? 1 : parseValue(stepText, undefined, 0);
    let low: number;
    let high: number;
    if (range === "*" || range === "?") {
      [low, high] = [min, max];
      star ||= stepText === undefined;
    } else {
      const [a, b] = range.split("-");
      low = parseValue(a, names, nameBase);
      high = b === undefined ? (stepText === undefined ? low : max) : parseValue(b, names, nameBase);
    }
    if (low < min || high > max || low > high) throw new Error(`end of range (${high}) above maximum (${max}): ${part}`);
    if (step <= 0) throw new Error(`step of range should be a positive number: ${part}`);
    for (let v = low; v <= high; v += step) values.add(v);
  }
  return { values, star };
}

export function parseCronSchedule(text: string): CronSchedule {
  const trimmed = text.trim();
  const expanded = trimmed.startsWith("@") ? SHORTHANDS[trimmed] : trimmed;
  if (!expanded) throw new Error(`unrecognized descriptor: ${trimmed}`);
  const fields = expanded.split(/\s+/);
  if (fields.length !== 5) throw new Error(`expected exactly 5 fields, found ${fields.length}: ${trimmed}`);
  const dom = parseField(fields[2], 1, 31);
  const dow = parseField(fields[4], 0, 7, WEEKDAYS);
  // 7 is Sunday too.
  if (dow.values.delete(7)) dow.values.add(0);
  return {
    minutes: parseField(fields[0], 0, 59).values,
    hours: parseField(fields[1], 0, 23).values,
    daysOfMonth: dom.values,
    months: parseField(fields[3], 1, 12, MONTHS, 1).values,
    daysOfWeek: dow.values,
    dayStar: dom.star || dow.star,
  };
}

function matches(schedule: CronSchedule, date: Date): boolean {
  const dom = schedule.daysOfMonth.has(date.getUTCDate());
  const dow = schedule.daysOfWeek.has(date.getUTCDay());
  const day = schedule.dayStar ? dom && dow : dom || dow;
  return day && schedule.months.has(date.getUTCMonth() + 1) && schedule.hours.has(date.getUTCHours()) && schedule.minutes.has(date.getUTCMinutes());
}

/** The first scheduled time strictly after `after` (ms), or null when none comes within the search limit. */
export function nextScheduleTime(schedule: CronSchedule, after: number): number | null {
  let t = Math.floor(after / 60_000) * 60_000 + 60_000;
  for (let i = 0; i < SEARCH_LIMIT_MINUTES; i++, t += 60_000) {
    if (matches(schedule, new Date(t))) return t;
  }
  return null;
}

/** The latest scheduled time in (earliest, now], and how many were missed before it. */
export function mostRecentScheduleTime(schedule: CronSchedule, earliest: number, now: number): { time: number | null; missed: number } {
  let time: number | null = null;
  let missed = 0;
  for (let t = nextScheduleTime(schedule, earliest); t !== null && t <= now; t = nextScheduleTime(schedule, t)) {
    if (time !== null) missed++;
    time = t;
  }
  return { time, missed };
}
