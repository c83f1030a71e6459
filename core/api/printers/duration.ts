/**
 * kube's duration.HumanDuration and translateTimestampSince: the AGE-style cells of server-side tables,
 * about two significant figures ("119s", "3m10s", "2d1h", "2y1d").
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export function humanDuration(milliseconds: number): string {
  // Go truncates toward zero; a clock up to two seconds ahead still reads as "now".
  const seconds = Math.trunc(milliseconds / SECOND);
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 2 * 60) return `${seconds}s`;
  const minutes = Math.floor(milliseconds / MINUTE);
  if (minutes < 10) return withRemainder(minutes, "m", seconds % 60, "s");
  if (minutes < 3 * 60) return `${minutes}m`;
  const hours = Math.floor(milliseconds / HOUR);
  if (hours < 8) return withRemainder(hours, "h", minutes % 60, "m");
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (hours < 24 * 8) return withRemainder(days, "d", hours % 24, "h");
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.floor(days / 365);
  if (hours < 24 * 365 * 8) return withRemainder(years, "y", days % 365, "d");
  return `${years}y`;
}

function withRemainder(major: number, majorUnit: string, minor: number, minorUnit: string): string {
  return minor === 0 ? `${major}${majorUnit}` : `${major}${majorUnit}${minor}${minorUnit}`;
}

/** Milliseconds since the epoch of an RFC 3339 timestamp (metav1.Time or MicroTime), or undefined when unset. */
export function parseTimestamp(timestamp: unknown): number | undefined {
  if (typeof timestamp !== "string" || timestamp === "") return undefined;
  const parsed = Date.parse(timestamp);
  return Number.isNaN(parsed) ? undefined : parsed;
}

/** kube's translateTimestampSince: "<unknown>" for an unset time. */
export function timeSince(timestamp: unknown, now: Date): string {
  const time = parseTimestamp(timestamp);
  return time === undefined ? "<unknown>" : humanDuration(now.getTime() - time);
}

/** The AGE cell: time since the object was created. */
export function ageOf(obj: { metadata: { creationTimestamp?: string } }, now: Date): string {
  return timeSince(obj.metadata.creationTimestamp, now);
}
