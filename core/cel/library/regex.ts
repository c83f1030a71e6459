/**
 * kube's CEL regex library of 1.26 (k8s.io/apiserver/pkg/cel/library/regex.go): `find` and `findAll` with an
 * optional limit, in RE2 syntax as `matches` uses; and the global form of the standard `matches(string, string)`,
 * which cel-go declares beside the method and @bufbuild/cel does not.
 */
import { type CelFunc, celFunc, celMethod, CelScalar, listType } from "@bufbuild/cel";
import { compileRE2 } from "./_re2.ts";

function findAll(text: string, pattern: string, limit: bigint): string[] {
  const regex = compileRE2(pattern, "g");
  const found: string[] = [];
  // regex.go: a negative limit means all matches, zero means none.
  for (const match of text.matchAll(regex)) {
    if (limit >= 0n && BigInt(found.length) >= limit) break;
    found.push(match[0]);
  }
  return found;
}

export const regexFunctions: CelFunc[] = [
  celFunc("matches", [CelScalar.STRING, CelScalar.STRING], CelScalar.BOOL, (text, pattern) => compileRE2(pattern, "").test(text)),
  celMethod("find", CelScalar.STRING, [CelScalar.STRING], CelScalar.STRING, function (pattern) {
    return compileRE2(pattern, "").exec(this)?.[0] ?? "";
  }),
  celMethod("findAll", CelScalar.STRING, [CelScalar.STRING], listType(CelScalar.STRING), function (pattern) {
    return findAll(this, pattern, -1n);
  }),
  celMethod("findAll", CelScalar.STRING, [CelScalar.STRING, CelScalar.INT], listType(CelScalar.STRING), function (pattern, limit) {
    return findAll(this, pattern, limit);
  }),
];
