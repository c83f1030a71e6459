import { expect, test } from "bun:test";
import { AUTHENTICATED_GROUP, withAuthenticatedGroup } from "./user.ts";

test("AuthenticatedGroupAdder: a kept (frozen) user gets one shared twin in system:authenticated; a fresh user a new one", () => {
  const kept = Object.freeze({ username: "system:serviceaccount:ns:sa", groups: Object.freeze(["system:serviceaccounts"]) as string[] });
  const added = withAuthenticatedGroup(kept);
  expect(added.groups).toEqual(["system:serviceaccounts", AUTHENTICATED_GROUP]);
  expect(withAuthenticatedGroup(kept)).toBe(added);
  expect(Object.isFrozen(added.groups)).toBe(true);
  const fresh = { username: "alice", groups: ["devs"] };
  expect(withAuthenticatedGroup(fresh)).not.toBe(withAuthenticatedGroup(fresh));
  expect(fresh.groups).toEqual(["devs"]);
});

test("AuthenticatedGroupAdder: a kept user already in a standard group, or anonymous, is itself every time", () => {
  const inGroup = Object.freeze({ username: "bob", groups: Object.freeze(["devs", AUTHENTICATED_GROUP]) as string[] });
  expect(withAuthenticatedGroup(inGroup)).toBe(inGroup);
  expect(withAuthenticatedGroup(inGroup)).toBe(inGroup);
  const anonymous = Object.freeze({ username: "system:anonymous", groups: Object.freeze(["system:unauthenticated"]) as string[] });
  expect(withAuthenticatedGroup(anonymous)).toBe(anonymous);
  expect(withAuthenticatedGroup(withAuthenticatedGroup(Object.freeze({ username: "carol", groups: [] })))).toEqual({
    username: "carol",
    groups: [AUTHENTICATED_GROUP],
  });
});
