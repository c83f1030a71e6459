/** Resource quantities as numbers (kube's resource.Quantity, to milli precision) and back to text. */
const SUFFIXES: Record<string, number> = {
  "": 1, n: 1e-9, u: 1e-6, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
};

export function parseQuantity(text: string | number | undefined): number {
  if (typeof text === "number") return text;
  const match = /^([+-]?[0-9.]+)(?:([eE][-+]?[0-9]+)|([a-zA-Z]*))$/.exec(String(text ?? "0").trim());
  if (!match) return 0;
  const base = Number(match[1]) * (match[2] ? 10 ** Number(match[2].slice(1)) : 1);
  return base * (SUFFIXES[match[3] ?? ""] ?? 1);
}

const BINARY = ["Ei", "Pi", "Ti", "Gi", "Mi", "Ki"];

/** Canonical-looking text: `500m`, `2`, `1Gi`. */
export function formatQuantity(value: number): string {
  const milli = Math.round(value * 1000);
  if (milli % 1000 !== 0) return `${milli}m`;
  const whole = milli / 1000;
  for (const suffix of BINARY) {
    const unit = SUFFIXES[suffix]!;
    if (whole >= unit && whole % unit === 0) return `${whole / unit}${suffix}`;
  }
  return String(whole);
}
