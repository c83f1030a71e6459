import { expect, test } from "bun:test";
import { humanDuration, timeSince } from "./duration.ts";

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;
const y = 365 * d;

// kube's own TestHumanDuration and TestHumanDurationBoundaries cases (nanoseconds become milliseconds).
const cases: [number, string][] = [
  [s, "1s"],
  [70 * s, "70s"],
  [190 * s, "3m10s"],
  [70 * m, "70m"],
  [47 * h, "47h"],
  [49 * h, "2d1h"],
  [(8 * 24 + 2) * h, "8d"],
  [367 * d, "367d"],
  [(365 * 2 * 24 + 25) * h, "2y1d"],
  [(365 * 8 * 24 + 2) * h, "8y"],
  [-2 * s, "<invalid>"],
  [-2 * s + 1, "0s"],
  [0, "0s"],
  [s - 1, "0s"],
  [2 * m - 1, "119s"],
  [2 * m, "2m"],
  [2 * m + s, "2m1s"],
  [10 * m - 1, "9m59s"],
  [10 * m, "10m"],
  [10 * m + s, "10m"],
  [3 * h - 1, "179m"],
  [3 * h, "3h"],
  [3 * h + m, "3h1m"],
  [8 * h - 1, "7h59m"],
  [8 * h, "8h"],
  [8 * h + 59 * m, "8h"],
  [2 * d - 1, "47h"],
  [2 * d, "2d"],
  [2 * d + h, "2d1h"],
  [8 * d - 1, "7d23h"],
  [8 * d, "8d"],
  [8 * d + 23 * h, "8d"],
  [2 * y - 1, "729d"],
  [2 * y, "2y"],
  [2 * y + 23 * h + 59 * m, "2y"],
  [2 * y + d - 1, "2y"],
  [2 * y + d, "2y1d"],
  [3 * y, "3y"],
  [7 * y, "7y"],
  [8 * y - 1, "7y364d"],
  [8 * y, "8y"],
  [8 * y + 364 * d, "8y"],
  [9 * y, "9y"],
];

for (const [milliseconds, expected] of cases) {
  test(`humanDuration(${milliseconds}ms) is ${expected} as in kube`, () => {
    expect(humanDuration(milliseconds)).toBe(expected);
  });
}

test("timeSince() reads RFC 3339 and micro-time stamps and answers <unknown> when unset", () => {
  const now = new Date("2024-05-01T12:00:00Z");
  expect(timeSince("2024-05-01T11:56:40Z", now)).toBe("3m20s");
  expect(timeSince("2024-05-01T11:59:55.123456Z", now)).toBe("4s");
  expect(timeSince(undefined, now)).toBe("<unknown>");
  expect(timeSince("", now)).toBe("<unknown>");
});
