import { expect, test } from "bun:test";
import { StatusError } from "../api/errors.ts";
import type { Authentication, TokenAuthenticator } from "./authenticator.ts";
import { reviewToken } from "./token-review.ts";

function answering(result: Authentication, seen: string[][] = []): TokenAuthenticator {
  return {
    authenticateToken: (_token, audiences) => {
      seen.push(audiences);
      return Promise.resolve(result);
    },
  };
}

test("reviewToken() reports the user with system:authenticated and the audiences it is valid for", async () => {
  const tokens = answering({
    kind: "user",
    user: { username: "alice", uid: "u1", groups: ["dev"], extra: { scopes: ["a"] } },
    audiences: ["api"],
  });
  expect(await reviewToken(tokens, { token: "t" }, ["api"])).toEqual({
    authenticated: true,
    user: { username: "alice", uid: "u1", groups: ["dev", "system:authenticated"], extra: { scopes: ["a"] } },
    audiences: ["api"],
  });
});

test("reviewToken() asks for the review's audiences, else the server's", async () => {
  const seen: string[][] = [];
  const tokens = answering({ kind: "user", user: { username: "bob", groups: [] }, audiences: ["x"] }, seen);
  await reviewToken(tokens, { token: "t", audiences: ["x"] }, ["api"]);
  await reviewToken(tokens, { token: "t", audiences: [] }, ["x"]);
  expect(seen).toEqual([["x"], ["x"]]);
});

test("reviewToken() calls an unknown token an invalid bearer token and passes other errors on", async () => {
  expect(await reviewToken(answering({ kind: "not-mine" }), { token: "t" }, [])).toEqual({ user: {}, error: "invalid bearer token" });
  expect(await reviewToken(answering({ kind: "error", message: "token expired" }), { token: "t" }, [])).toEqual({
    user: {},
    error: "token expired",
  });
});

test("reviewToken() fails with 500 when an accepted token is for none of the audiences asked for", async () => {
  const tokens = answering({ kind: "user", user: { username: "carol", groups: [] } });
  const failure = await reviewToken(tokens, { token: "t", audiences: ["x"] }, []).catch((e: unknown) => e);
  expect(failure).toBeInstanceOf(StatusError);
  expect((failure as StatusError).message).toBe("Internal error occurred: error validating audiences");
  expect(await reviewToken(tokens, { token: "t" }, [])).toEqual({
    authenticated: true,
    user: { username: "carol", groups: ["system:authenticated"] },
  });
});
