/**
 * Counts the heap cells a server process makes between two SIGUSR2 signals, for bench/listener-cells.ts: the first
 * collects fully and takes JavaScriptCore's cell counts (bun:jsc heapStats), the second takes them again and writes
 * the difference by type as one line `CELLS <json>` to stderr. Nothing is collected in between unless the window
 * allocates enough to start a collection, so keep it to about a hundred small requests.
 */
import { heapStats } from "bun:jsc";

export function countCellsOnSignal(): void {
  let before: Record<string, number> | undefined;
  process.on("SIGUSR2", () => {
    if (before === undefined) {
      Bun.gc(true);
      before = heapStats().objectTypeCounts;
      process.stderr.write("CELLS-START\n");
      return;
    }
    const after = heapStats().objectTypeCounts;
    const made: Record<string, number> = {};
    for (const [type, count] of Object.entries(after)) made[type] = count - (before[type] ?? 0);
    before = undefined;
    process.stderr.write(`CELLS ${JSON.stringify(made)}\n`);
  });
}
