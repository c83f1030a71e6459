/**
 * The process's open-file limit. Bun raises the soft limit to the hard limit when it starts (there is no
 * setrlimit in the Node or Bun APIs, so kubun relies on that), and the listener sizes its connection cap from it.
 */
import { readFileSync } from "node:fs";

/** Sockets, database files, logs and outgoing clients (webhooks, aggregated servers) besides client connections. */
const RESERVED_FILES = 128;
/** Without a known file limit (not Linux), the cap is this many connections. */
const DEFAULT_MAX_CONNECTIONS = 10_000;

/** The soft open-file limit from /proc/self/limits; undefined where that file does not exist or says "unlimited". */
export function openFileLimit(limitsText?: string): number | undefined {
  let text = limitsText;
  if (text === undefined) {
    try {
      text = readFileSync("/proc/self/limits", "utf8");
    } catch {
      return undefined;
    }
  }
  const match = /^Max open files\s+(\d+)\s/m.exec(text);
  return match ? Number(match[1]) : undefined;
}

/** How many client connections fit in the file limit with room left for the server's own files. */
export function maxConnectionsFor(fileLimit: number | undefined): number {
  if (fileLimit === undefined) return DEFAULT_MAX_CONNECTIONS;
  return Math.max(16, fileLimit - RESERVED_FILES);
}
