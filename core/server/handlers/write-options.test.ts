import { expect, test } from "bun:test";
import { statusErrorOf } from "../../api/testing.ts";
import { parseDryRun, parsePatchQuery, parseWriteQuery } from "./write-options.ts";

const q = (text: string) => new URLSearchParams(text);
const SUPPORTED_DIRECTIVES = 'supported values: "", "Ignore", "Strict", "Warn"';

test("parseWriteQuery() reads dryRun, fieldManager and fieldValidation (default Warn)", () => {
  expect(parseWriteQuery(q(""), "CreateOptions")).toEqual({ dryRun: false, fieldValidation: "Warn", fieldManager: undefined });
  expect(parseWriteQuery(q("dryRun=All&fieldManager=me&fieldValidation=Strict"), "UpdateOptions")).toEqual({
    dryRun: true,
    fieldValidation: "Strict",
    fieldManager: "me",
  });
  expect(parseWriteQuery(q("dryRun&fieldValidation="), "CreateOptions")).toMatchObject({ dryRun: false, fieldValidation: "Warn" });
});

test("parseWriteQuery() answers one 422 with every ValidateCreateOptions / ValidateUpdateOptions error, in kube's order", () => {
  const single = statusErrorOf(() => parseWriteQuery(q("fieldValidation=strict"), "CreateOptions"));
  expect([single.code, single.message]).toEqual([
    422,
    `CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "strict": ${SUPPORTED_DIRECTIVES}`,
  ]);
  const all = statusErrorOf(() => parseWriteQuery(q(`fieldManager=${"m".repeat(129)}&dryRun=Some&fieldValidation=Loose`), "UpdateOptions"));
  expect(all.code).toBe(422);
  expect(all.message).toStartWith('UpdateOptions.meta.k8s.io "" is invalid: [fieldManager: Too long: ');
  expect(all.message).toContain(
    ', dryRun: Unsupported value: []string{"Some"}: supported values: "All", fieldValidation: Unsupported value: "Loose"',
  );
});

test("parseWriteQuery() applies ValidateFieldManager: at most 128 bytes, one error per unprintable character at its byte offset", () => {
  expect(parseWriteQuery(q(`fieldManager=${"é".repeat(64)}`), "CreateOptions").fieldManager).toBe("é".repeat(64));
  const tooLong = statusErrorOf(() => parseWriteQuery(q(`fieldManager=${"é".repeat(65)}`), "CreateOptions"));
  expect(tooLong.message).toBe('CreateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: must have at most 128 bytes');
  const unprintable = statusErrorOf(() => parseWriteQuery(q("fieldManager=é%01x%C2%A0"), "UpdateOptions"));
  expect(unprintable.details?.causes?.map((c) => c.message)).toEqual([
    'Invalid value: "é\\x01x\\u00a0": invalid character U+0001 (at position 2)',
    'Invalid value: "é\\x01x\\u00a0": invalid character U+00A0 (at position 4)',
  ]);
});

test("parsePatchQuery() decodes force as Convert_Slice_string_To_Pointer_bool for apply", () => {
  const cases: [string, boolean][] = [["", false], ["&force=True", true], ["&force=t", true], ["&force", true], ["&force=", true], [
    "&force=FALSE",
    false,
  ], ["&force=0", false]];
  for (const [query, force] of cases) expect([query, parsePatchQuery(q(`fieldManager=m${query}`), true).force]).toEqual([query, force]);
});

test("parsePatchQuery() applies ValidatePatchOptions: force only on apply, a field manager required by apply", () => {
  const forbidden = statusErrorOf(() => parsePatchQuery(q("force=false"), false));
  expect(forbidden.message).toBe('PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');
  const required = statusErrorOf(() => parsePatchQuery(q("force=true&fieldValidation=Bad"), true));
  expect(required.message).toBe(
    `PatchOptions.meta.k8s.io "" is invalid: [fieldManager: Required value: is required for apply patch, fieldValidation: Unsupported value: "Bad": ${SUPPORTED_DIRECTIVES}]`,
  );
  expect(parsePatchQuery(q("fieldValidation=Ignore"), false)).toEqual({
    dryRun: false,
    fieldValidation: "Ignore",
    fieldManager: undefined,
    force: false,
  });
});

test("parseDryRun() accepts All and a bare dryRun, and refuses other values for DeleteOptions, naming the list (ValidateDryRun)", () => {
  expect(parseDryRun(q("dryRun=All"), "DeleteOptions")).toBe(true);
  expect(parseDryRun(q("dryRun"), "DeleteOptions")).toBe(false);
  expect(statusErrorOf(() => parseDryRun(q("dryRun=Yes"), "DeleteOptions")).message).toBe(
    'DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Yes"}: supported values: "All"',
  );
});

test("parseWriteQuery() of a query with only empty or bare options checks them as kube's ValidateCreateOptions does", () => {
  expect(parseWriteQuery(q("dryRun&fieldValidation="), "CreateOptions")).toEqual({
    dryRun: false,
    fieldValidation: "Warn",
    fieldManager: undefined,
  });
  expect(parseWriteQuery(q("fieldManager="), "CreateOptions")).toEqual({ dryRun: false, fieldValidation: "Warn", fieldManager: "" });
});
