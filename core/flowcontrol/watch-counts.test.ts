import { expect, test } from "bun:test";
import { WatchCounts } from "./watch-counts.ts";

const write = (namespace: string, name: string) => ({
  verb: "update",
  apiGroup: "apps",
  resource: "deployments",
  subresource: "",
  namespace,
  name,
  query: new URLSearchParams(),
});

test("GetInterestedWatchCount: a write reaches watches of the whole resource, of its namespace and of its object", () => {
  const watches = new WatchCounts();
  const all = watches.register({ apiGroup: "apps", resource: "deployments", namespace: "", name: "" });
  watches.register({ apiGroup: "apps", resource: "deployments", namespace: "a", name: "" });
  watches.register({ apiGroup: "apps", resource: "deployments", namespace: "a", name: "web" });
  watches.register({ apiGroup: "apps", resource: "deployments", namespace: "b", name: "" });
  watches.register({ apiGroup: "", resource: "deployments", namespace: "", name: "" });
  expect(watches.interested(write("a", "web"))).toBe(3);
  expect(watches.interested(write("a", "db"))).toBe(2);
  expect(watches.interested(write("c", "x"))).toBe(1);
  all();
  all();
  expect(watches.interested(write("c", "x"))).toBe(0);
});
