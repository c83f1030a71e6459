/** The compiled server's process as a benchmark observes it from outside (Linux /proc). */
import { readdirSync, readFileSync } from "node:fs";

/** The server's pid, found by its data directory on its command line. */
export function serverPid(dataDir: string): number {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(dataDir)) return Number(entry);
    } catch {
      // the process ended while we looked
    }
  }
  throw new Error("kubun's process was not found");
}

export function residentBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(match![1]) * 1024;
}

/** CPU time (user + system) the process has used, in milliseconds (clock ticks of 10 ms). */
export function cpuMilliseconds(pid: number): number {
  return statCpuMilliseconds(`/proc/${pid}/stat`);
}

/**
 * The same for the process's main thread alone, the one that runs JavaScript: the rest of a Bun process's CPU time
 * goes to the JIT's compiler threads and the collector's helpers.
 */
export function mainThreadCpuMilliseconds(pid: number): number {
  return statCpuMilliseconds(`/proc/${pid}/task/${pid}/stat`);
}

/**
 * CPU time of JavaScriptCore's JIT compiler threads (named `JITWorker`), in milliseconds: how much of the process's
 * time beside the main thread goes to compiling what the load made hot.
 */
export function jitThreadsCpuMilliseconds(pid: number): number {
  let total = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      if (readFileSync(`/proc/${pid}/task/${task}/comm`, "utf8").startsWith("JITWorker")) {
        total += statCpuMilliseconds(`/proc/${pid}/task/${task}/stat`);
      }
    } catch {
      // the thread ended while we looked
    }
  }
  return total;
}

function statCpuMilliseconds(statPath: string): number {
  const stat = readFileSync(statPath, "utf8");
  // The thread's name, in parentheses, may itself hold ") ".
  const fields = stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Bytes the process has made the kernel write (/proc/<pid>/io write_bytes: pages it dirtied, 4 KiB each). */
export function writtenBytes(pid: number | "self"): number {
  return Number(/^write_bytes: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, "utf8"))![1]);
}
