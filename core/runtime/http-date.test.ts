import { expect, test } from "bun:test";
import { httpDate } from "./http-date.ts";

// Go's http.TimeFormat, as net/http's chunkWriter.writeHeader writes the Date of every answer.
const GO_TIME_FORMAT = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d GMT$/;

test("httpDate writes the time in Go's http.TimeFormat, in whole seconds", () => {
  expect(httpDate(Date.UTC(2026, 0, 2, 3, 4, 5, 678))).toBe("Fri, 02 Jan 2026 03:04:05 GMT");
  expect(httpDate()).toMatch(GO_TIME_FORMAT);
});

test("httpDate gives each second its own text, also when the clock goes back", () => {
  const start = Date.UTC(2026, 10, 26, 4, 59, 59, 900);
  expect(httpDate(start)).toBe("Thu, 26 Nov 2026 04:59:59 GMT");
  expect(httpDate(start + 99)).toBe("Thu, 26 Nov 2026 04:59:59 GMT");
  expect(httpDate(start + 100)).toBe("Thu, 26 Nov 2026 05:00:00 GMT");
  expect(httpDate(start - 1000)).toBe("Thu, 26 Nov 2026 04:59:58 GMT");
});
