import { expect, test } from "bun:test";
import { type ClaimRules, userFromClaims } from "./claims.ts";

const RULES: ClaimRules = {
  issuerUrl: "https://idp",
  usernameClaim: "sub",
  usernamePrefix: "",
  groupsClaim: "groups",
  groupsPrefix: "oidc:",
  requiredClaims: [],
};

test("the sub claim is prefixed with the issuer URL and # by default; '-' disables the prefix", () => {
  expect(userFromClaims({ sub: "carol" }, RULES)).toEqual({ username: "https://idp#carol", groups: [] });
  expect(userFromClaims({ sub: "carol" }, { ...RULES, usernamePrefix: "-" })).toEqual({ username: "carol", groups: [] });
  expect(userFromClaims({ sub: "carol" }, { ...RULES, usernamePrefix: "idp:" })).toEqual({ username: "idp:carol", groups: [] });
});

test("the email claim has no default prefix and needs email_verified not to be false", () => {
  const rules = { ...RULES, usernameClaim: "email" };
  expect(userFromClaims({ email: "c@x", email_verified: true }, rules)).toEqual({ username: "c@x", groups: [] });
  expect(userFromClaims({ email: "c@x" }, rules)).toEqual({ username: "c@x", groups: [] });
  expect(userFromClaims({ email: "c@x", email_verified: false }, rules)).toBe("oidc: email not verified");
});

test("groups may be a string or a list and get the groups prefix", () => {
  expect(userFromClaims({ sub: "c", groups: "admins" }, RULES)).toMatchObject({ groups: ["oidc:admins"] });
  expect(userFromClaims({ sub: "c", groups: ["a", "b"] }, RULES)).toMatchObject({ groups: ["oidc:a", "oidc:b"] });
  expect(userFromClaims({ sub: "c", groups: [1] }, RULES)).toBe(
    'oidc: parse groups claim "groups": expected a string or a list of strings',
  );
});

test("required claims must be present with their value; a missing username claim is an error", () => {
  const rules = { ...RULES, requiredClaims: ["hd=example.com"] };
  expect(userFromClaims({ sub: "c", hd: "example.com" }, rules)).toMatchObject({ username: "https://idp#c" });
  expect(userFromClaims({ sub: "c" }, rules)).toBe("oidc: required claim hd not present in ID token");
  expect(userFromClaims({ sub: "c", hd: "other" }, rules)).toBe(
    "oidc: required claim hd value does not match. Got = other, want = example.com",
  );
  expect(userFromClaims({}, RULES)).toBe('oidc: parse username claims "sub": claim not present');
});
