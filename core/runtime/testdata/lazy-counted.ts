/** lazy-module.test.ts's module: counts its evaluations on globalThis. */
const counter = globalThis as { lazyCountedLoads?: number };
counter.lazyCountedLoads = (counter.lazyCountedLoads ?? 0) + 1;

export const answer = 42;
