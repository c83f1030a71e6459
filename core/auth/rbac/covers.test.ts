import { expect, test } from "bun:test";
import { compactRule, uncoveredRules } from "./covers.ts";

test("uncoveredRules() answers the one-verb parts of the servant rules that no owner rule grants", () => {
  const owner = [{ apiGroups: [""], resources: ["pods"], verbs: ["get", "list"] }];
  expect(uncoveredRules(owner, [{ apiGroups: [""], resources: ["pods"], verbs: ["get"] }])).toEqual([]);
  expect(uncoveredRules(owner, [{ apiGroups: [""], resources: ["pods", "secrets"], verbs: ["get", "delete"] }])).toEqual([
    { apiGroups: [""], resources: ["pods"], verbs: ["delete"] },
    { apiGroups: [""], resources: ["secrets"], verbs: ["get"] },
    { apiGroups: [""], resources: ["secrets"], verbs: ["delete"] },
  ]);
});

test("uncoveredRules() honours *, */subresource, resource names and URL prefixes", () => {
  expect(
    uncoveredRules([{ apiGroups: ["*"], resources: ["*"], verbs: ["*"] }], [{
      apiGroups: ["apps"],
      resources: ["deployments/scale"],
      verbs: ["patch"],
    }]),
  ).toEqual([]);
  expect(
    uncoveredRules([{ apiGroups: [""], resources: ["*/status"], verbs: ["get"] }], [{
      apiGroups: [""],
      resources: ["pods/status"],
      verbs: ["get"],
    }]),
  ).toEqual([]);
  const named = [{ apiGroups: [""], resources: ["pods"], resourceNames: ["a"], verbs: ["get"] }];
  expect(uncoveredRules(named, [{ apiGroups: [""], resources: ["pods"], resourceNames: ["a"], verbs: ["get"] }])).toEqual([]);
  expect(uncoveredRules(named, [{ apiGroups: [""], resources: ["pods"], verbs: ["get"] }])).toHaveLength(1);
  expect(uncoveredRules([{ nonResourceURLs: ["/apis/*"], verbs: ["get"] }], [{ nonResourceURLs: ["/apis/apps"], verbs: ["get"] }])).toEqual(
    [],
  );
  expect(uncoveredRules([{ nonResourceURLs: ["/apis"], verbs: ["get"] }], [{ nonResourceURLs: ["/apis/apps"], verbs: ["get"] }]))
    .toHaveLength(1);
});

test("uncoveredRules() counts a servant rule the owner holds field for field, in any key order, as covered whole", () => {
  const owner = [{ verbs: ["get", "watch"], resourceNames: ["a"], resources: ["pods", "secrets"], apiGroups: ["", "apps"] }];
  const same = { apiGroups: ["", "apps"], resources: ["pods", "secrets"], resourceNames: ["a"], verbs: ["get", "watch"] };
  expect(uncoveredRules(owner, [same])).toEqual([]);
  expect(uncoveredRules(owner, [same, { ...same, resourceNames: ["b"], verbs: ["get"] }])).toHaveLength(4);
});

test("compactRule() writes kube's escalation message form", () => {
  expect(compactRule({ apiGroups: [""], resources: ["pods"], verbs: ["get"] })).toBe('{APIGroups:[""], Resources:["pods"], Verbs:["get"]}');
  expect(compactRule({ apiGroups: [""], resources: ["pods"], resourceNames: ["a", "b"], verbs: ["get"] }))
    .toBe('{APIGroups:[""], Resources:["pods"], ResourceNames:["a" "b"], Verbs:["get"]}');
  expect(compactRule({ nonResourceURLs: ["/metrics"], verbs: ["get"] })).toBe('{NonResourceURLs:["/metrics"], Verbs:["get"]}');
});
