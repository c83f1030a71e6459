/** IsValidPercent of k8s.io/apimachinery util/validation. */
import { regexError } from "../../api/names.ts";

const PERCENT_FMT = "[0-9]+%";
const PERCENT_RE = /^[0-9]+%$/;

export interface IsValidPercentResult {
  errors: string[];
  percent: number;
}

export function isValidPercent(value: string): IsValidPercentResult {
  if (!PERCENT_RE.test(value)) {
    return {
      errors: [regexError("a valid percent string must be a numeric string followed by an ending '%'", PERCENT_FMT, "1%", "93%")],
      percent: 0,
    };
  }
  return { errors: [], percent: Number(value.slice(0, -1)) };
}
