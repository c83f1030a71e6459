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
