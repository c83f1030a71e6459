/** How busy this process has been: the CPU time it used since the last reading over the time that passed. */
import process from "node:process";

/** Each call answers for the span since the previous call (the first, since creation); 1 = one core busy throughout. */
export function cpuShareSampler(): () => number {
  let cpu = process.cpuUsage();
  let at = performance.now();
  return () => {
    const used = process.cpuUsage(cpu);
    const now = performance.now();
    const share = (used.user + used.system) / 1000 / Math.max(now - at, 1);
    cpu = process.cpuUsage();
    at = now;
    return share;
  };
}
