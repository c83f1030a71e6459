/**
 * Whether the process's local time zone is UTC, found without asking the runtime: Bun's (JavaScriptCore's) local-time
 * Date methods load ICU's time-zone data and code at their first call, ~2 MiB an idle server keeps for good (bench/
 * profiles/memory.md, tenth session), and klog's text header is the only local time the server prints. A zone is
 * UTC here only when that is certain, the way Go's time package (initLocal) and the C library read it: $TZ naming UTC,
 * or, without $TZ, /etc/localtime holding a single zero offset. Anything else answers false, and the header keeps
 * using the local-time methods.
 */
import { readFileSync } from "node:fs";

const UTC_NAMES = /^:?(?:Etc\/)?(?:UTC|UCT|Universal|Zulu)$/;
/** A POSIX TZ string of one zero-offset standard time and no daylight saving time ("UTC0", "<+00>0"). */
const ZERO_OFFSET_RULE = /^(?:[A-Za-z]{3,}|<[A-Za-z0-9+-]{3,}>)0$/;
const HEADER_BYTES = 44;

export function localZoneIsUtc(tz: string | undefined, readLocaltime: () => Uint8Array = () => readFileSync("/etc/localtime")): boolean {
  if (tz !== undefined) return UTC_NAMES.test(tz);
  try {
    return tzifIsUtc(readLocaltime());
  } catch {
    return false;
  }
}

/**
 * A TZif file (RFC 8536) that says UTC for every instant: in the data block its version reads (the second one from
 * version 2 on, with 64-bit transition times), no transitions and one time type of offset 0, and a footer rule, if
 * any, of offset 0 without daylight saving time.
 */
export function tzifIsUtc(file: Uint8Array): boolean {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const magic = String.fromCharCode(...file.subarray(0, 4));
  if (magic !== "TZif" || file.length < HEADER_BYTES) return false;
  const version = file[4]!;
  let header = 0;
  if (version !== 0) {
    header = HEADER_BYTES + blockBytes(view, 0, 4);
    if (file.length < header + HEADER_BYTES) return false;
  }
  const [, , , timeCount, typeCount] = counts(view, header);
  if (timeCount !== 0 || typeCount !== 1) return false;
  const data = header + HEADER_BYTES;
  if (file.length < data + 6 || view.getInt32(data) !== 0 || file[data + 4] !== 0) return false;
  if (version === 0) return true;
  const footer = new TextDecoder().decode(file.subarray(header + HEADER_BYTES + blockBytes(view, header, 8))).trim();
  return footer === "" || ZERO_OFFSET_RULE.test(footer);
}

/** isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt of the header at `at`. */
function counts(view: DataView, at: number): number[] {
  return Array.from({ length: 6 }, (_, i) => view.getUint32(at + 20 + 4 * i));
}

/** The size of the data block after the header at `at`, with transition times and leap seconds of `timeBytes`. */
function blockBytes(view: DataView, at: number, timeBytes: number): number {
  const [isUtc, isStd, leaps, times, types, chars] = counts(view, at) as [number, number, number, number, number, number];
  return times * (timeBytes + 1) + types * 6 + chars + leaps * (timeBytes + 4) + isStd + isUtc;
}
