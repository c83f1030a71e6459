/**
 * Reads `perf script -F ip,sym,dso` of call-graph samples (one blank-line-separated stack per sample, leaf first)
 * and charges them to JavaScript functions by the names JavaScriptCore's jitdump gave perf (bench/_jitdump.ts):
 * inclusive (any frame of the stack) and nearest (the innermost JS frame, so native code is charged to its caller).
 */

/** A JIT frame's function name without its tier ("JSC-FTL: ") and code hash ("#AbC123"); anonymous keeps the hash. */
function jsName(symbol: string): string | undefined {
  const match = /^JSC-\w+: (.*)$/.exec(symbol);
  if (!match) return undefined;
  const name = match[1]!;
  return name.startsWith("#") ? name : name.replace(/#\w+$/, "");
}

/** Stubs between JS and native code, not functions of the program. */
const TRAMPOLINES = new Set(["CallTrampoline", "unspecified", "bound", "VirtualCall", "GetById", "GetByVal"]);

export interface Attribution {
  samples: number;
  inclusive: Map<string, number>;
  nearest: Map<string, number>;
}

export function attribute(perfScript: string): Attribution {
  const inclusive = new Map<string, number>();
  const nearest = new Map<string, number>();
  let samples = 0;
  const add = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  for (const stack of perfScript.split(/\n\s*\n/)) {
    const names: string[] = [];
    for (const line of stack.split("\n")) {
      const frame = /^\s*[0-9a-f]+\s+(.*?) \(.*\)$/.exec(line);
      const name = frame && jsName(frame[1]!);
      if (name && !TRAMPOLINES.has(name)) names.push(name);
    }
    if (stack.trim() === "") continue;
    samples++;
    for (const name of new Set(names)) add(inclusive, name);
    add(nearest, names[0] ?? "(no JavaScript frame: event loop, TLS, GC)");
  }
  return { samples, inclusive, nearest };
}

/** The top rows of a map as "µs per request  name" lines, given how many µs one sample stands for per request. */
export function topRows(counts: Map<string, number>, microsecondsPerSample: number, rows: number): string[] {
  return [...counts].sort((a, b) => b[1] - a[1]).slice(0, rows).map(([name, count]) =>
    `${(count * microsecondsPerSample).toFixed(1).padStart(6)} µs  ${name}`
  );
}
