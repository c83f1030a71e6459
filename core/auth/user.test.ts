import { expect, test } from "bun:test";
import { ANONYMOUS, AUTHENTICATED_GROUP, withAuthenticatedGroup } from "./user.ts";

test("AuthenticatedGroupAdder: an authenticated user gains system:authenticated, anonymous does not", () => {
  const user = { username: "alice", groups: ["devs"] };
  expect(withAuthenticatedGroup(user)).toEqual({ username: "alice", groups: ["devs", AUTHENTICATED_GROUP] });
  expect(user.groups).toEqual(["devs"]);
  expect(withAuthenticatedGroup(ANONYMOUS)).toBe(ANONYMOUS);
});

test("AuthenticatedGroupAdder: a frozen user (one an authenticator hands out again) gets the same frozen answer each time", () => {
  const shared = Object.freeze({ username: "admin", groups: Object.freeze(["system:masters"]) as string[] });
  const first = withAuthenticatedGroup(shared);
  expect(first).toEqual({ username: "admin", groups: ["system:masters", AUTHENTICATED_GROUP] });
  expect(withAuthenticatedGroup(shared)).toBe(first);
  expect(Object.isFrozen(first) && Object.isFrozen(first.groups)).toBe(true);
  const other = Object.freeze({ username: "bob", groups: [] });
  expect(withAuthenticatedGroup(other).username).toBe("bob");
});
