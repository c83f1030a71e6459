import { expect, test } from "bun:test";
import { parseTokenFile, tokenFileAuthenticator } from "./token-file.ts";

test("parseTokenFile() reads token, user, uid and the quoted group column", () => {
  const tokens = parseTokenFile('abc,alice,u1,"dev,ops"\nxyz,bob,u2\n', "tokens.csv");
  expect(tokens.get("abc")).toEqual({ username: "alice", uid: "u1", groups: ["dev", "ops"] });
  expect(tokens.get("xyz")).toEqual({ username: "bob", uid: "u2", groups: [] });
});

test("parseTokenFile() uses only the fourth column for groups, as kube does", () => {
  expect(parseTokenFile("t,carol,u3,g1,g2", "f").get("t")!.groups).toEqual(["g1"]);
});

test("parseTokenFile() skips empty tokens and lets a later duplicate win", () => {
  const tokens = parseTokenFile(",nobody,u0\nt,first,u1\nt,second,u2", "f");
  expect([...tokens.keys()]).toEqual(["t"]);
  expect(tokens.get("t")!.username).toBe("second");
});

test("parseTokenFile() rejects a record with fewer than 3 columns", () => {
  expect(() => parseTokenFile("t,alice", "/etc/tokens.csv")).toThrow(
    "token file '/etc/tokens.csv' must have at least 3 columns (token, user name, user uid), found 2",
  );
});

test("tokenFileAuthenticator() knows listed tokens only", async () => {
  const authenticator = tokenFileAuthenticator(parseTokenFile("abc,alice,u1", "f"));
  expect(await authenticator.authenticateToken("abc", [])).toEqual({ kind: "user", user: { username: "alice", uid: "u1", groups: [] } });
  expect(await authenticator.authenticateToken("abd", [])).toEqual({ kind: "not-mine" });
});
