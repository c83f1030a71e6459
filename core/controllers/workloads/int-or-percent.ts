/** kube's intstr.GetScaledValueFromIntOrPercent: "25%" of a total, rounded up or down, or a plain integer. */
export function scaledValue(value: unknown, total: number, roundUp: boolean): number {
  if (typeof value === "number") return value;
  const match = /^(\d+)%$/.exec(String(value ?? ""));
  if (!match) return 0;
  const exact = (Number(match[1]) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}
