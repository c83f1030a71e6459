/** Regular expressions in RE2 syntax: RE2's parser decides what is valid (as kube's Go regexp), JS runs the match. */
import { RE2JS } from "@bufbuild/re2";

export function compileRE2(pattern: string, flags: "" | "g"): RegExp {
  RE2JS.compile(pattern);
  return new RegExp(pattern, `u${flags}`);
}
