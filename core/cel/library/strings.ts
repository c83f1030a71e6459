/**
 * The strings extension as kube 1.26 compiles it (cel-go ext.Strings of cel-go 0.12): charAt, indexOf, join,
 * lastIndexOf, lowerAscii, replace, split, substring, trim, upperAscii. `format` and `strings.quote` came later.
 * split() follows Go's strings.SplitN, which ext.Strings calls.
 */
import { type CelFunc, celList, celMethod, CelScalar, listType } from "@bufbuild/cel";
import { strings } from "@bufbuild/cel/ext";

const LATER = new Set(["format", "strings.quote"]);

/**
 * strings.SplitN: a limit n > 0 gives at most n parts, the last holding the rest; 0 gives none; below 0 all. An empty
 * separator splits after each code point.
 */
function splitN(text: string, separator: string, n: number): string[] {
  if (n === 0) return [];
  const parts = separator === "" ? [...text] : text.split(separator);
  if (n < 0 || parts.length <= n) return parts;
  const head = parts.slice(0, n - 1);
  return [...head, parts.slice(n - 1).join(separator)];
}

const LIST_STRING = listType(CelScalar.STRING);
const split: CelFunc[] = [
  celMethod("split", CelScalar.STRING, [CelScalar.STRING], LIST_STRING, function (separator) {
    return celList(splitN(this, separator, -1));
  }),
  celMethod("split", CelScalar.STRING, [CelScalar.STRING, CelScalar.INT], LIST_STRING, function (separator, n) {
    return celList(splitN(this, separator, Number(n)));
  }),
];

export const stringFunctions: CelFunc[] = [...strings.filter((func) => !LATER.has(func.name) && func.name !== "split"), ...split];
