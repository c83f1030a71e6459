/** Go's time.ParseDuration syntax ("1h30m", "250ms", "0"), read into milliseconds; errors carry Go's text. */

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, "µs": 1e-3, "μs": 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export function parseGoDuration(text: string): number {
  const quoted = JSON.stringify(text);
  const invalid = () => new Error(`time: invalid duration ${quoted}`);
  const match = /^([+-]?)(.*)$/s.exec(text)!;
  const body = match[2]!;
  if (body === "0") return 0;
  if (body === "") throw invalid();
  let total = 0;
  let rest = body;
  while (rest !== "") {
    // A number ([0-9]*(\.[0-9]*)?, at least one digit), then a unit: everything up to the next digit or dot.
    const number = /^(\d*)(?:\.(\d*))?/.exec(rest)!;
    if (number[1] === "" && !number[2]) throw invalid();
    rest = rest.slice(number[0].length);
    const unit = /^[^\d.]*/.exec(rest)![0];
    if (unit === "") throw new Error(`time: missing unit in duration ${quoted}`);
    if (!Object.hasOwn(UNIT_MS, unit)) throw new Error(`time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}`);
    total += Number.parseFloat(number[0].startsWith(".") ? `0${number[0]}` : number[0]) * UNIT_MS[unit]!;
    rest = rest.slice(unit.length);
  }
  return match[1] === "-" ? -total : total;
}
