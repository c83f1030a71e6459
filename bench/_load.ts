/** Load generation and statistics shared by the benchmark sections. */

/** Runs `operation(i)` for i in [0, count) with `concurrency` workers; answers operations per second. */
export async function rate(count: number, concurrency: number, operation: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) await operation(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return count / ((performance.now() - started) / 1000);
}

/** Like rate(), but runs for `durationMs` instead of a fixed count. */
export async function rateFor(durationMs: number, concurrency: number, operation: () => Promise<void>): Promise<number> {
  let done = 0;
  const started = performance.now();
  const deadline = started + durationMs;
  const worker = async () => {
    while (performance.now() < deadline) {
      await operation();
      done++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return done / ((performance.now() - started) / 1000);
}

/** Milliseconds each of `times` runs of `operation` took, sequentially. */
export async function latencies(times: number, operation: () => Promise<void>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await operation();
    samples.push(performance.now() - started);
  }
  return samples;
}

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export function expectStatus(response: Response, status: number, what: string): void {
  if (response.status !== status) throw new Error(`${what}: expected ${status}, got ${response.status}`);
}
