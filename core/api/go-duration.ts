/** Go's time.ParseDuration syntax ("1h30m", "250ms", "0"), read into milliseconds; errors carry Go's text. */

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, "µs": 1e-3, "μs": 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export function parseGoDuration(text: string): number {
  const invalid = () => new Error(`time: invalid duration ${JSON.stringify(text)}`);
  const match = /^([+-]?)(.*)$/.exec(text)!;
  const body = match[2]!;
  if (body === "0") return 0;
  if (body === "") throw invalid();
  let total = 0;
  let rest = body;
  while (rest !== "") {
    const part = /^(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/.exec(rest);
    if (!part) throw invalid();
    total += Number.parseFloat(part[1]!) * UNIT_MS[part[2]!]!;
    rest = rest.slice(part[0].length);
  }
  return match[1] === "-" ? -total : total;
}
