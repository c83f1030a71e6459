import { expect, test } from "bun:test";
import {
  containerCells,
  formatLabels,
  formatLabelSelector,
  joinHostPort,
  listWithMore,
  loadBalancerText,
  selectorText,
} from "./_format.ts";

test("formatLabels() sorts pairs and answers <none> when there are none", () => {
  expect(formatLabels({ tier: "web", app: "shop" })).toBe("app=shop,tier=web");
  expect(formatLabels({})).toBe("<none>");
  expect(formatLabels(undefined)).toBe("<none>");
});

test("selectorText() prints requirements sorted by key with kube's operator spelling", () => {
  const selector = {
    matchLabels: { app: "web" },
    matchExpressions: [
      { key: "zone", operator: "In", values: ["b", "a"] },
      { key: "env", operator: "NotIn", values: ["dev"] },
      { key: "canary", operator: "DoesNotExist" },
      { key: "managed", operator: "Exists" },
    ],
  };
  expect(selectorText(selector)).toBe("app=web,!canary,env notin (dev),managed,zone in (a,b)");
  expect(selectorText(undefined)).toBe("");
  expect(selectorText({ matchExpressions: [{ key: "a", operator: "Near" }] })).toBeUndefined();
});

test("formatLabelSelector() answers <none> for empty selectors and <error> for invalid ones", () => {
  expect(formatLabelSelector({ matchLabels: { app: "web" } })).toBe("app=web");
  expect(formatLabelSelector({})).toBe("<none>");
  expect(formatLabelSelector(undefined)).toBe("<none>");
  expect(formatLabelSelector({ matchExpressions: [{ key: "a", operator: "In", values: [] }] })).toBe("<error>");
});

test("listWithMore() keeps three entries and counts the rest", () => {
  expect(listWithMore(["a", "b", "c", "d", "e"])).toBe("a,b,c + 2 more...");
  expect(listWithMore(["a", "b", "c"])).toBe("a,b,c");
  expect(listWithMore([], { empty: "<unset>" })).toBe("<unset>");
  expect(listWithMore(["1", "2", "3"], { max: 2, separator: ", " })).toBe("1, 2 + 1 more...");
});

test("containerCells(), joinHostPort() and loadBalancerText() lay out cells as kube does", () => {
  expect(containerCells([{ name: "app", image: "nginx:1" }, { name: "log", image: "busybox" }])).toEqual(["app,log", "nginx:1,busybox"]);
  expect(containerCells(undefined)).toEqual(["", ""]);
  expect(joinHostPort("10.0.0.1", 80)).toBe("10.0.0.1:80");
  expect(joinHostPort("fd00::1", 80)).toBe("[fd00::1]:80");
  expect(loadBalancerText([{ ip: "5.6.7.8" }, { hostname: "lb.example.com" }, { ip: "1.2.3.4" }, { ip: "1.2.3.4" }])).toBe(
    "1.2.3.4,5.6.7.8,lb.example.com",
  );
});
