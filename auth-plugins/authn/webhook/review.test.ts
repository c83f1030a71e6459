import { expect, test } from "bun:test";
import { readTokenReviewReply, tokenReviewRequest } from "./review.ts";

const AUDS = ["https://kubernetes.default.svc.cluster.local"];
const reply = (status: unknown, apiVersion = "authentication.k8s.io/v1") => ({ apiVersion, kind: "TokenReview", status });

test("tokenReviewRequest() sends the token and audiences in the configured version", () => {
  expect(tokenReviewRequest("v1", "t", AUDS)).toMatchObject({
    apiVersion: "authentication.k8s.io/v1",
    kind: "TokenReview",
    spec: { token: "t", audiences: AUDS },
  });
});

test("an authenticated reply gives its user and the audiences it grants", () => {
  const decision = readTokenReviewReply(
    "v1",
    200,
    reply({ authenticated: true, user: { username: "w", uid: "1", groups: ["g"], extra: { k: ["v"] } } }),
    AUDS,
  );
  expect(decision).toEqual({ kind: "user", user: { username: "w", uid: "1", groups: ["g"], extra: { k: ["v"] } }, audiences: AUDS });
});

test("a rejection carries the error text, or nothing for the generic Unauthorized", () => {
  expect(readTokenReviewReply("v1", 200, reply({ authenticated: false, error: "revoked" }), AUDS)).toEqual({
    kind: "error",
    message: "revoked",
  });
  expect(readTokenReviewReply("v1", 200, reply({ authenticated: false }), AUDS)).toEqual({ kind: "not-mine" });
});

test("a token valid only for other audiences is not authenticated", () => {
  expect(readTokenReviewReply("v1", 200, reply({ authenticated: true, user: { username: "w" }, audiences: ["other"] }), AUDS)).toEqual({
    kind: "not-mine",
  });
});

test("a reply in another version or an HTTP error breaks the protocol", () => {
  expect(() => readTokenReviewReply("v1beta1", 200, reply({ authenticated: true, user: { username: "w" } }), AUDS)).toThrow(
    /expected authentication.k8s.io\/v1beta1 TokenReview/,
  );
  expect(() => readTokenReviewReply("v1", 500, {}, AUDS)).toThrow("the token webhook answered HTTP 500");
});
