import { expect, test } from "bun:test";
import { audienceAgnostic } from "./audience-agnostic.ts";
import type { TokenAuthenticator } from "./authenticator.ts";

const alice = { username: "alice", groups: [] };
const acceptsGood: TokenAuthenticator = {
  authenticateToken: (token) => Promise.resolve(token === "good" ? { kind: "user", user: alice } : { kind: "not-mine" }),
};

test("audienceAgnostic() answers for the server's audiences and reports the overlap", async () => {
  const wrapped = audienceAgnostic(acceptsGood, ["api", "kubun"]);
  expect(await wrapped.authenticateToken("good", ["other", "kubun"])).toEqual({ kind: "user", user: alice, audiences: ["kubun"] });
  expect(await wrapped.authenticateToken("bad", ["kubun"])).toEqual({ kind: "not-mine" });
});

test("audienceAgnostic() does not recognise a token presented for another audience", async () => {
  expect(await audienceAgnostic(acceptsGood, ["api"]).authenticateToken("good", ["elsewhere"])).toEqual({ kind: "not-mine" });
});

test("audienceAgnostic() passes through when no audiences are asked for", async () => {
  expect(await audienceAgnostic(acceptsGood, []).authenticateToken("good", [])).toEqual({ kind: "user", user: alice });
});
