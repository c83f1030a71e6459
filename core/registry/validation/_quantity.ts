/** Resource quantities ("500m", "1Gi", "1e3") read as numbers, enough to compare requests with limits. */

const QUANTITY_RE = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;
const SUFFIX_FACTORS: Record<string, number> = {
  "": 1, n: 1e-9, u: 1e-6, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
};

/** The quantity's value, or undefined when the text is not a quantity (the schema check reports that). */
export function quantityValue(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value !== "string") return undefined;
  const match = QUANTITY_RE.exec(value);
  if (!match) return undefined;
  const base = Number(match[1]);
  if (Number.isNaN(base)) return undefined;
  const suffix = match[2];
  const factor = SUFFIX_FACTORS[suffix] ?? (/^[eE][-+]?[0-9]+$/.test(suffix) ? 10 ** Number(suffix.slice(1)) : undefined);
  return factor === undefined ? undefined : base * factor;
}
