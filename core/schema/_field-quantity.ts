/** resource.ParseQuantity's verdict on a Quantity field, worded as kube words it. */

export const QUANTITY_FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const SUFFIX_ERROR = "unable to parse quantity's suffix";

// Number, optional fraction, then suffix characters and an optional signed exponent: what parseQuantityString scans.
const SHAPE = /^[+-]?[0-9]*(?:\.[0-9]*)?([eEinumkKMGTP]*[-+]?[0-9]*)$/;
const KNOWN_SUFFIXES = new Set(["", "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"]);
const EXPONENT = /^[eE][+-]?[0-9]+$/;

/** The error kube answers for this quantity text (already trimmed), or undefined when it parses. */
export function quantityError(text: string): string | undefined {
  if (text === "") return QUANTITY_FORMAT_ERROR;
  const shape = SHAPE.exec(text);
  // Go reads an empty numerator as "0", so a bare suffix such as "Mi" parses.
  if (!shape) return QUANTITY_FORMAT_ERROR;
  const suffix = shape[1];
  if (KNOWN_SUFFIXES.has(suffix) || EXPONENT.test(suffix)) return undefined;
  return SUFFIX_ERROR;
}
