import { expect, test } from "bun:test";
import { PrefixIndex } from "./prefix-index.ts";

test("matching() finds items under every prefix of the key and nothing else", () => {
  const index = new PrefixIndex<string>();
  index.add("/pods/", "all pods");
  index.add("/pods/default/", "default pods");
  index.add("/pods/kube-system/", "system pods");
  index.add("/po", "odd prefix");
  index.add("", "everything");
  expect(index.matching("/pods/default/web").toSorted()).toEqual(["all pods", "default pods", "everything", "odd prefix"]);
  expect(index.matching("/services/default/web")).toEqual(["everything"]);
});

test("remove() unregisters one item and keeps others with the same prefix", () => {
  const index = new PrefixIndex<number>();
  index.add("/a/", 1);
  index.add("/a/", 2);
  index.add("/b/", 3);
  index.remove("/a/", 1);
  expect(index.matching("/a/x")).toEqual([2]);
  index.remove("/a/", 2);
  index.remove("/a/", 2);
  expect(index.matching("/a/x")).toEqual([]);
  expect(index.matching("/b/x")).toEqual([3]);
  expect(index.all()).toEqual([3]);
});

test("matching() finds directory prefixes at each / of the key, and other prefixes (an object's own key) by length", () => {
  const index = new PrefixIndex<string>();
  index.add("/", "root");
  index.add("/core/pods/default/", "namespace");
  index.add("/core/pods/default/web", "one pod");
  index.add("/core/pods/default/we", "part of a name");
  index.add("/core/pods/default/web-2", "a longer name");
  expect(index.matching("/core/pods/default/web").toSorted()).toEqual(["namespace", "one pod", "part of a name", "root"]);
  index.remove("/core/pods/default/web", "one pod");
  index.remove("/core/pods/default/", "namespace");
  expect(index.matching("/core/pods/default/web").toSorted()).toEqual(["part of a name", "root"]);
  expect(index.matching("/core/pods/default/web-2/x").toSorted()).toEqual(["a longer name", "part of a name", "root"]);
});

test("matching() finds a directory prefix once when another prefix has its length (each watcher gets an event once, as Cacher.dispatchEvent sends it)", () => {
  const index = new PrefixIndex<string>();
  index.add("/core/pods/default/", "namespace watch");
  index.add("/core/pods/ns/abcde", "one pod's log");
  expect(index.matching("/core/pods/default/web-0")).toEqual(["namespace watch"]);
  expect(index.matching("/core/pods/ns/abcde").toSorted()).toEqual(["one pod's log"]);
});

test("matching() answers what is registered now for keys of a directory it has matched before, and a list it gave stays as it was", () => {
  const index = new PrefixIndex<string>();
  index.add("/", "root");
  const before = index.matching("/core/configmaps/default/a");
  expect(before).toEqual(["root"]);
  index.add("/core/configmaps/", "configmaps");
  expect(index.matching("/core/configmaps/default/b")).toEqual(["root", "configmaps"]);
  expect(before).toEqual(["root"]);
  index.add("/core/configmaps/default/", "default");
  index.add("/core/configmaps/default/c", "one object");
  expect(index.matching("/core/configmaps/default/c")).toEqual(["root", "configmaps", "default", "one object"]);
  expect(index.matching("/core/configmaps/other/c")).toEqual(["root", "configmaps"]);
  index.remove("/core/configmaps/", "configmaps");
  expect(index.matching("/core/configmaps/default/d")).toEqual(["root", "default"]);
  index.remove("/", "root");
  expect(index.matching("/core/configmaps/other/c")).toEqual([]);
  // One key's directory is a prefix of another's, not the same directory.
  index.add("/core/configmaps/default/x/", "deeper");
  expect(index.matching("/core/configmaps/default/x/y")).toEqual(["default", "deeper"]);
  expect(index.matching("/core/configmaps/default/xy")).toEqual(["default"]);
});
