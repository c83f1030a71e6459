/**
 * The strings extension as kube 1.26 compiles it (cel-go ext.Strings of cel-go 0.12): charAt, indexOf, join,
 * lastIndexOf, lowerAscii, replace, split, substring, trim, upperAscii. `format` and `strings.quote` came later.
 */
import type { CelFunc } from "@bufbuild/cel";
import { strings } from "@bufbuild/cel/ext";

const LATER = new Set(["format", "strings.quote"]);

export const stringFunctions: CelFunc[] = strings.filter((func) => !LATER.has(func.name));
