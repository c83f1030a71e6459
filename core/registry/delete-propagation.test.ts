import { expect, test } from "bun:test";
import { finalizersAfterDelete } from "./delete-propagation.ts";

const deployments = "Background";
const jobs = "Orphan";

test("finalizersAfterDelete() adds the orphan finalizer for an Orphan delete", () => {
  expect(finalizersAfterDelete(deployments, ["example.com/keep"], "Orphan")).toEqual(["example.com/keep", "orphan"]);
});

test("finalizersAfterDelete() swaps orphan for foregroundDeletion on a Foreground delete", () => {
  expect(finalizersAfterDelete(deployments, ["orphan"], "Foreground")).toEqual(["foregroundDeletion"]);
});

test("finalizersAfterDelete() leaves the finalizers alone for a Background delete of an ordinary object", () => {
  expect(finalizersAfterDelete(deployments, [], "Background")).toBeUndefined();
  expect(finalizersAfterDelete(deployments, [], undefined)).toBeUndefined();
});

test("finalizersAfterDelete() keeps a finalizer already on the object when the request names no policy", () => {
  expect(finalizersAfterDelete(deployments, ["foregroundDeletion"], undefined)).toBeUndefined();
});

test("finalizersAfterDelete() applies a kind's Orphan default (batch/v1 Jobs) only when the request names no policy", () => {
  expect(finalizersAfterDelete(jobs, [], undefined)).toEqual(["orphan"]);
  expect(finalizersAfterDelete(jobs, [], "Background")).toBeUndefined();
});
