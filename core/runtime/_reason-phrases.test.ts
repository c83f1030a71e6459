import { expect, test } from "bun:test";
import { STATUS_CODES } from "node:http";
import { REASON_PHRASES } from "./_reason-phrases.ts";

test("the status line's reason phrases are node:http's, which the HTTP/1.x layer wrote before", () => {
  expect(JSON.stringify(REASON_PHRASES)).toBe(JSON.stringify(STATUS_CODES));
});
