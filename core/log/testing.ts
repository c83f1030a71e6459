/** For tests: the lines logged while a test runs, instead of stderr. */
import { configureLogging, resetLogging } from "./logger.ts";

export function captureLogs(): { lines: string[]; restore(): void } {
  const lines: string[] = [];
  configureLogging({ write: (line) => lines.push(line) });
  return { lines, restore: resetLogging };
}
