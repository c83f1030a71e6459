import { expect, test } from "bun:test";
import { newForbidden } from "../api/errors.ts";
import type { ResourceType } from "../api/resource-type.ts";
import { type WriteAttempt, WriteGuards } from "./write-guard.ts";

const attempt = (group: string, resource: string): WriteAttempt => ({
  operation: "create",
  user: { username: "u", groups: [] },
  type: { group, resource } as ResourceType,
  namespace: "",
  object: { metadata: { name: "x" } },
  oldObject: null,
  dryRun: false,
});

test("WriteGuards.check() runs the guards of the attempt's resource in order and stops at a refusal", async () => {
  const guards = new WriteGuards();
  const calls: string[] = [];
  guards.register("rbac.authorization.k8s.io", "roles", () => Promise.resolve(void calls.push("first")));
  guards.register("rbac.authorization.k8s.io", "roles", () => Promise.reject(newForbidden("no")));
  guards.register("rbac.authorization.k8s.io", "roles", () => Promise.resolve(void calls.push("third")));
  await expect(guards.check(attempt("rbac.authorization.k8s.io", "roles"))).rejects.toThrow("no");
  expect(calls).toEqual(["first"]);
  await guards.check(attempt("", "roles"));
  expect(calls).toEqual(["first"]);
});

test("WriteGuards.check() of a resource without guards answers at once, without a promise", () => {
  const guards = new WriteGuards();
  guards.register("rbac.authorization.k8s.io", "roles", () => Promise.resolve());
  expect(guards.check(attempt("", "configmaps"))).toBeUndefined();
});
