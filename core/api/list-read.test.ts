import { expect, test } from "bun:test";
import { encodeContinue } from "./continue-token.ts";
import { statusErrorOf } from "./testing.ts";
import { parseListOptions } from "./list-options.ts";
import { LIST_TOO_OLD_MESSAGE, newListTooOld, resolveGetRead, resolveListRead } from "./list-read.ts";

const PREFIX = "/registry/pods/";
const CURRENT = 100;
const TOKEN_AT_40 = encodeContinue("/registry/pods/ns/a", PREFIX, 40);
const read = (query: string) => {
  const options = parseListOptions(new URLSearchParams(query));
  return resolveListRead(options, CURRENT, { keyPrefix: PREFIX, fromWatchCache: options.limit === 0 });
};

test("resolveListRead() follows every valid row of the spec 4.5 list table", () => {
  const rows: [string, string, number][] = [
    ["", "latest", CURRENT],
    ["resourceVersion=0", "any", CURRENT],
    ["resourceVersion=50", "notOlderThan", CURRENT],
    ["limit=10", "latest", CURRENT],
    ["limit=10&resourceVersion=0", "any", CURRENT],
    ["limit=10&resourceVersion=50", "exact", 50],
    [`limit=10&continue=${TOKEN_AT_40}`, "exact", 40],
    [`limit=10&continue=${TOKEN_AT_40}&resourceVersion=0`, "exact", 40],
    ["resourceVersionMatch=Exact&resourceVersion=50", "exact", 50],
    ["resourceVersionMatch=Exact&resourceVersion=50&limit=10", "exact", 50],
    ["resourceVersionMatch=NotOlderThan&resourceVersion=0", "any", CURRENT],
    ["resourceVersionMatch=NotOlderThan&resourceVersion=50", "notOlderThan", CURRENT],
    ["resourceVersionMatch=NotOlderThan&resourceVersion=50&limit=10", "notOlderThan", CURRENT],
  ];
  for (const [query, mode, revision] of rows) {
    const result = read(query);
    expect([query, result.mode, result.revision]).toEqual([query, mode, revision]);
  }
});

test("resolveListRead() hands back where a continued list resumes", () => {
  expect(read(`limit=1&continue=${TOKEN_AT_40}`).continueFrom).toEqual({
    startKey: "/registry/pods/ns/a\x00",
    startAfter: "/registry/pods/ns/a",
    revision: 40,
  });
  const latest = read(`limit=1&continue=${encodeContinue("/registry/pods/ns/a", PREFIX, -1)}`);
  expect([latest.mode, latest.revision]).toEqual(["latest", CURRENT]);
});

test("resolveListRead() answers 400 for a continue token with a non-zero resourceVersion", () => {
  const error = statusErrorOf(() => read(`limit=10&continue=${TOKEN_AT_40}&resourceVersion=50`));
  expect([error.code, error.message]).toEqual([400, "specifying resource version is not allowed when using continue"]);
});

test("resolveListRead() answers 400 for a malformed continue token or resourceVersion", () => {
  expect(statusErrorOf(() => read("limit=1&continue=%2A%2A")).message).toStartWith(
    "invalid continue token: continue key is not valid: illegal base64 data",
  );
  expect(statusErrorOf(() => read("resourceVersion=abc")).message).toStartWith("invalid resource version:");
});

test("resolveListRead() answers 504 with Retry-After for a future resourceVersion", () => {
  for (const query of ["resourceVersion=101", "resourceVersion=101&limit=1", "resourceVersionMatch=Exact&resourceVersion=101"]) {
    const error = statusErrorOf(() => read(query));
    expect([query, error.code, error.message, error.headers["Retry-After"]]).toEqual([
      query,
      504,
      "Too large resource version: 101, current: 100",
      "1",
    ]);
  }
});

test("resolveGetRead() maps unset, 0 and N to latest, any and not-older-than", () => {
  expect(resolveGetRead("", CURRENT)).toEqual({ mode: "latest", revision: CURRENT });
  expect(resolveGetRead("0", CURRENT)).toEqual({ mode: "any", revision: CURRENT });
  expect(resolveGetRead("7", CURRENT)).toEqual({ mode: "notOlderThan", revision: CURRENT });
  expect(statusErrorOf(() => resolveGetRead("200", CURRENT)).code).toBe(504);
});

test("newListTooOld() is kube's 410 for an exact list below the compacted revision", () => {
  const error = newListTooOld();
  expect([error.code, error.reason, error.message]).toEqual([410, "Expired", LIST_TOO_OLD_MESSAGE]);
});
