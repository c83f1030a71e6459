import { expect, test } from "bun:test";
import { parsePolicyFile } from "./policy.ts";

const line = (spec: Record<string, unknown>) =>
  JSON.stringify({ apiVersion: "abac.authorization.kubernetes.io/v1beta1", kind: "Policy", spec });

test("parsePolicyFile() reads one v1beta1 policy per line and skips blank and # comment lines", () => {
  const content = [
    "# admins",
    line({ user: "alice", namespace: "*", resource: "*", apiGroup: "*" }),
    "",
    "   ",
    line({ group: "dev", readonly: true, nonResourcePath: "/version" }),
  ].join("\n");
  expect(parsePolicyFile(content, "p.jsonl")).toEqual([
    { user: "alice", group: "", readonly: false, apiGroup: "*", namespace: "*", resource: "*", nonResourcePath: "" },
    { user: "", group: "dev", readonly: true, apiGroup: "", namespace: "", resource: "", nonResourcePath: "/version" },
  ]);
});

test("a v1beta1 policy for user or group * applies to every authenticated subject", () => {
  const [policy] = parsePolicyFile(line({ user: "*", resource: "pods" }), "p");
  expect(policy).toMatchObject({ user: "", group: "system:authenticated", resource: "pods" });
});

test("an unversioned (v0) policy is migrated: empty fields mean everything and an empty subject every authenticated one", () => {
  expect(parsePolicyFile('{"readonly": true}', "p")).toEqual([
    { user: "", group: "system:authenticated", readonly: true, apiGroup: "*", namespace: "*", resource: "*", nonResourcePath: "*" },
  ]);
  expect(parsePolicyFile('{"user": "bob", "namespace": "projectA"}', "p")).toEqual([
    { user: "bob", group: "", readonly: false, apiGroup: "*", namespace: "projectA", resource: "*", nonResourcePath: "" },
  ]);
});

test("a line that is not a JSON object fails naming the file and line", () => {
  expect(() => parsePolicyFile(`${line({ user: "a" })}\n{not json`, "/etc/abac.jsonl")).toThrow(
    /^error reading policy file \/etc\/abac.jsonl, line 2: \{not json: /,
  );
  expect(() => parsePolicyFile("[1]", "p")).toThrow("line 1: [1]: a policy must be a JSON object");
});

test("a field of the wrong type or a v1beta1 line of another kind fails with the field path", () => {
  expect(() => parsePolicyFile(line({ user: 7 }), "p")).toThrow(
    "line 1: " + line({ user: 7 }) + ": Policy: spec.user: Invalid value: 7: must be of type string",
  );
  const otherKind = JSON.stringify({ apiVersion: "abac.authorization.kubernetes.io/v1beta1", kind: "Rule", spec: {} });
  expect(() => parsePolicyFile(otherKind, "p")).toThrow('Policy: kind: Unsupported value: "Rule": supported values: "Policy"');
  expect(() => parsePolicyFile('{"readonly": "yes"}', "p")).toThrow('Policy: readonly: Invalid value: "yes": must be of type boolean');
});
