import { expect, test } from "bun:test";
import {
  type Authentication,
  type Authenticator,
  bearerToken,
  bearerTokenAuthenticator,
  EXTRA_SPACE_WARNING,
  NOT_MINE,
  unionAuthenticator,
  unionTokenAuthenticator,
} from "./authenticator.ts";

const request = (headers: Record<string, string> = {}) => ({ headers: new Headers(headers), url: new URL("https://h/api") });
const answering = (result: Authentication): Authenticator => ({ authenticate: () => Promise.resolve(result) });
const alice: Authentication = { kind: "user", user: { username: "alice", groups: [] } };

test("unionAuthenticator() answers with the first user and skips the rest", async () => {
  let asked = false;
  const late: Authenticator = {
    authenticate: () => {
      asked = true;
      return Promise.resolve(NOT_MINE);
    },
  };
  expect(await unionAuthenticator([answering(NOT_MINE), answering(alice), late]).authenticate(request())).toEqual(alice);
  expect(asked).toBe(false);
});

test("unionAuthenticator() reports every error when no authenticator knows the user", async () => {
  const union = unionAuthenticator([
    answering({ kind: "error", message: "a" }),
    answering(NOT_MINE),
    answering({ kind: "error", message: "b" }),
  ]);
  expect(await union.authenticate(request())).toEqual({ kind: "error", message: "a, b" });
  expect(await unionAuthenticator([answering(NOT_MINE)]).authenticate(request())).toEqual(NOT_MINE);
});

test("bearerTokenAuthenticator() treats a token nobody accepts as invalid, and no token as not mine", async () => {
  const tokens = unionTokenAuthenticator([{ authenticateToken: (t) => Promise.resolve(t === "good" ? alice : NOT_MINE) }]);
  const bearer = bearerTokenAuthenticator(tokens, []);
  expect(await bearer.authenticate(request({ authorization: "Bearer good" }))).toEqual(alice);
  expect(await bearer.authenticate(request({ authorization: "Bearer bad" }))).toEqual({ kind: "error", message: "invalid bearer token" });
  expect(await bearer.authenticate(request())).toEqual(NOT_MINE);
  expect(await bearer.authenticate(request({ authorization: "Basic abc" }))).toEqual(NOT_MINE);
});

test("bearerToken() splits the header as kube's bearertoken.AuthenticateRequest: trailing words ignored, a double space leaves no token and warns", () => {
  const warnings: string[] = [];
  expect(bearerToken("Bearer good extra", warnings)).toBe("good");
  expect(bearerToken("  bearer good  ", warnings)).toBe("good");
  expect(warnings).toEqual([]);
  expect(bearerToken("Bearer  good", warnings)).toBeUndefined();
  expect(warnings).toEqual([EXTRA_SPACE_WARNING]);
  expect(bearerToken("Bearer\tgood")).toBeUndefined();
  expect(bearerToken("Bearer")).toBeUndefined();
  expect(bearerToken("Basic good")).toBeUndefined();
  expect(bearerToken("BEARER good  extra")).toBe("good");
  expect(bearerToken("Bearer good\u00a0tail")).toBe("good\u00a0tail");
  expect(bearerToken("Bearerx good")).toBeUndefined();
  expect(bearerToken("x Bearer good")).toBeUndefined();
});

test("unionAuthenticator() (kube's union.AuthenticateRequest) answers at once when its members do, and waits only from the first that waits", async () => {
  const atOnce = (result: Authentication): Authenticator => ({ authenticate: () => result });
  const failing: Authentication = { kind: "error", message: "bad certificate" };
  expect(unionAuthenticator([atOnce(NOT_MINE), atOnce(alice)]).authenticate(request())).toBe(alice);
  expect(bearerTokenAuthenticator(unionTokenAuthenticator([]), []).authenticate(request())).toBe(NOT_MINE);
  const mixed = unionAuthenticator([atOnce(failing), answering(NOT_MINE), atOnce({ kind: "error", message: "bad token" })]).authenticate(
    request(),
  );
  expect(mixed).toBeInstanceOf(Promise);
  expect(await mixed).toEqual({ kind: "error", message: "bad certificate, bad token" });
});
