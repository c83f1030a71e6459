import { expect, test } from "bun:test";
import { estimateWork, type WorkCounts } from "./work-estimate.ts";

const counts = (objects: number | undefined, watches = 0): WorkCounts => ({ objects: () => objects, interestedWatches: () => watches });
const request = (verb: string, query = "", extra: Partial<{ resource: string; subresource: string; name: string }> = {}) => ({
  verb,
  apiGroup: "",
  resource: "configmaps",
  subresource: "",
  namespace: "default",
  name: "",
  query: new URLSearchParams(query),
  ...extra,
});
const seatsOf = (verb: string, query: string, stored: number | undefined) =>
  estimateWork(request(verb, query), counts(stored)).initialSeats;

test("listWorkEstimator: a LIST from storage processes twice its limit, one seat per 100 objects, between 1 and 10", () => {
  expect(seatsOf("list", "", 450)).toBe(9);
  expect(seatsOf("list", "", 5000)).toBe(10);
  expect(seatsOf("list", "", 0)).toBe(1);
  expect(seatsOf("list", "limit=100", 450)).toBe(2);
  expect(seatsOf("list", "limit=1000", 450)).toBe(9);
});

test("listWorkEstimator: resourceVersion=0 is served by the watch cache (every stored object, limit ignored)", () => {
  expect(seatsOf("list", "resourceVersion=0", 450)).toBe(5);
  expect(seatsOf("list", "resourceVersion=0&limit=100", 450)).toBe(5);
  // shouldListFromStorage: a continue token, a limit with another resourceVersion, or Exact go to storage.
  expect(seatsOf("list", "resourceVersion=12&limit=100", 450)).toBe(2);
  expect(seatsOf("list", "resourceVersion=12&resourceVersionMatch=Exact", 450)).toBe(9);
  expect(seatsOf("list", "resourceVersion=12", 450)).toBe(5);
});

test("listWorkEstimator: a selector reads every stored object plus the limit", () => {
  expect(seatsOf("list", "labelSelector=a%3Db&limit=100", 450)).toBe(6);
  expect(seatsOf("list", "fieldSelector=metadata.namespace%3Ddefault", 450)).toBe(9);
});

test("listWorkEstimator: a named LIST or an untracked resource takes one seat, unparsable options the maximum", () => {
  expect(estimateWork(request("list", "", { name: "one" }), counts(5000)).initialSeats).toBe(1);
  expect(seatsOf("list", "", undefined)).toBe(1);
  expect(seatsOf("list", "limit=ten", 450)).toBe(10);
});

test("workEstimator: verbs other than list and the mutating ones take one seat", () => {
  for (const verb of ["get", "watch", "deletecollection", "post"]) {
    expect(estimateWork(request(verb), counts(5000, 500))).toEqual({ initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 });
  }
});

test("mutatingWorkEstimator: from 10 interested watches a write holds a seat per 10 watches for 5ms after it ends", () => {
  expect(estimateWork(request("create"), counts(0, 9))).toEqual({ initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 });
  expect(estimateWork(request("update"), counts(0, 25))).toEqual({ initialSeats: 1, finalSeats: 3, additionalLatencyMs: 5 });
  // Capped at 10 seats, the same work (30 seats × 5ms) takes longer.
  expect(estimateWork(request("patch"), counts(0, 300))).toEqual({ initialSeats: 1, finalSeats: 10, additionalLatencyMs: 15 });
});

test("mutatingWorkEstimator: creating a service account token sends no event (isRequestExemptFromWatchEvents)", () => {
  const token = request("create", "", { resource: "serviceaccounts", subresource: "token", name: "default" });
  expect(estimateWork(token, counts(0, 500)).finalSeats).toBe(0);
});
