/** The functions kube 1.26 adds to CEL for CRD validation rules: ext.Strings plus kube's URLs, Regex and Lists, and
 * cel-go's timestamps that keep their offset. */
import type { CelFunc } from "@bufbuild/cel";
import { listFunctions } from "./lists.ts";
import { regexFunctions } from "./regex.ts";
import { stringFunctions } from "./strings.ts";
import { timestampFunctions } from "./timestamps.ts";
import { urlFunctions } from "./urls.ts";

export const kubeFunctions: CelFunc[] = [
  ...stringFunctions,
  ...urlFunctions,
  ...regexFunctions,
  ...listFunctions,
  ...timestampFunctions,
];
export { compileRE2 } from "./_re2.ts";
