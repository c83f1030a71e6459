import { expect, test } from "bun:test";
import { request } from "../../../core/auth/rbac/testing.ts";
import { decisionOf, readReviewReply, reviewRequest, reviewSpec } from "./review.ts";

const reply = (status: unknown, apiVersion = "authorization.k8s.io/v1beta1") => ({ apiVersion, kind: "SubjectAccessReview", status });

test("reviewSpec() describes a resource request, naming the groups field `group` in v1beta1 and `groups` in v1", () => {
  const a = request({ user: { username: "jane", uid: "7", groups: ["dev"], extra: { scope: ["x"] } }, subresource: "log" });
  const resourceAttributes = { namespace: "default", verb: "get", version: "v1", resource: "pods", subresource: "log", name: "p" };
  expect(reviewSpec("v1beta1", a)).toEqual({ resourceAttributes, user: "jane", group: ["dev"], extra: { scope: ["x"] }, uid: "7" });
  expect(reviewSpec("v1", a)).toEqual({ resourceAttributes, user: "jane", groups: ["dev"], extra: { scope: ["x"] }, uid: "7" });
});

test("reviewSpec() describes a non-resource request by path and lower-case method", () => {
  const a = request({ isResourceRequest: false, path: "/healthz", verb: "get", user: { username: "jane", groups: [] } });
  expect(reviewRequest("v1", reviewSpec("v1", a))).toEqual({
    kind: "SubjectAccessReview",
    apiVersion: "authorization.k8s.io/v1",
    metadata: { creationTimestamp: null },
    spec: { nonResourceAttributes: { path: "/healthz", verb: "get" }, user: "jane" },
    status: { allowed: false },
  });
});

test("decisionOf() allows, denies only when denied is set (which wins), and otherwise has no opinion", () => {
  expect(decisionOf(readReviewReply(200, reply({ allowed: true })))).toEqual({ decision: "Allow" });
  expect(decisionOf(readReviewReply(200, reply({ allowed: false, reason: "nope" })))).toEqual({ decision: "NoOpinion", reason: "nope" });
  expect(decisionOf(readReviewReply(200, reply({ allowed: false, denied: true, reason: "never" })))).toEqual({
    decision: "Deny",
    reason: "never",
  });
  expect(decisionOf(readReviewReply(200, reply({ allowed: true, denied: true })))).toEqual({ decision: "Deny" });
});

test("readReviewReply() rejects HTTP errors and replies that are not a SubjectAccessReview", () => {
  expect(() => readReviewReply(403, reply({ allowed: true }))).toThrow("the authorization webhook answered HTTP 403");
  expect(() => readReviewReply(200, { apiVersion: "v1", kind: "Status" })).toThrow(
    "the authorization webhook answered v1 Status, expected a SubjectAccessReview",
  );
});
