/**
 * The log backend's writer. kube's log backend (plugin/pkg/audit/log backend.go logEvent) writes each event with
 * its own Fprint, from the request's goroutine in blocking mode: the event is with the OS before the request goes
 * on, and nothing is synced. Here the requests share one thread, so the lines handed over during one turn of the
 * event loop are written together right after it (one system call instead of one per event), in the order they
 * came; each caller still waits for its own lines to be written and hears of its own failure.
 */
import process from "node:process";
import { RotatingFile, type RotationOptions } from "./rotating-file.ts";

/** Writes lines in order; answers the error of each line that was not written. */
export type LineWriter = (lines: readonly string[]) => (Error | undefined)[];

interface Waiting {
  first: number;
  count: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

export interface CoalescingWriter {
  /** Hands `lines` over; they are written after this turn, together with everything else handed over in it. */
  append(lines: readonly string[]): Promise<void>;
  /** Writes what is waiting now (at shutdown, so nothing handed over is lost). */
  flush(): void;
}

export function coalescingWriter(write: LineWriter): CoalescingWriter {
  let lines: string[] = [];
  let waiting: Waiting[] = [];
  const flush = () => {
    if (waiting.length === 0) return;
    const written = lines;
    const waiters = waiting;
    lines = [];
    waiting = [];
    let errors: (Error | undefined)[];
    try {
      errors = write(written);
    } catch (error) {
      errors = written.map(() => error as Error);
    }
    for (const waiter of waiters) {
      const failure = errors.slice(waiter.first, waiter.first + waiter.count).find((error) => error !== undefined);
      if (failure) waiter.reject(failure);
      else waiter.resolve();
    }
  };
  return {
    append: (handed) =>
      new Promise<void>((resolve, reject) => {
        if (waiting.length === 0) setImmediate(flush);
        waiting.push({ first: lines.length, count: handed.length, resolve, reject });
        lines.push(...handed);
      }),
    flush,
  };
}

/** `-` is standard output; any other path is the rotated file. */
export function logLineWriter(path: string, rotation: RotationOptions): LineWriter {
  if (path === "-") {
    return (lines) => {
      process.stdout.write(lines.join(""));
      return [];
    };
  }
  const file = new RotatingFile(path, rotation);
  return (lines) => file.write(lines);
}
