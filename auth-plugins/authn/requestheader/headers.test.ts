import { expect, test } from "bun:test";
import { userFromHeaders } from "./headers.ts";

const NAMES = {
  usernameHeaders: ["X-Remote-User", "X-Other-User"],
  groupHeaders: ["X-Remote-Group"],
  extraHeaderPrefixes: ["X-Remote-Extra-"],
};

test("userFromHeaders() takes the first non-empty username header, every group and percent-decoded lower-case extra keys", () => {
  const headers = new Headers([
    ["X-Remote-User", ""],
    ["X-Other-User", "alice"],
    ["X-Remote-Group", "devs"],
    ["X-Remote-Group", "ops"],
    ["X-Remote-Extra-Acme.com%2FProject", "blue"],
    ["X-Remote-Extra-Scopes", "read"],
    ["X-Remote-Extra-Scopes", "write"],
  ]);
  expect(userFromHeaders(headers, NAMES)).toEqual({
    username: "alice",
    groups: ["devs", "ops"],
    extra: { "acme.com/project": ["blue"], scopes: ["read", "write"] },
  });
});

test("userFromHeaders() names nobody without a username header", () => {
  expect(userFromHeaders(new Headers({ "X-Remote-Group": "devs" }), NAMES)).toBeUndefined();
});
