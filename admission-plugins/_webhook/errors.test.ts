import { expect, test } from "bun:test";
import { denialError, newDryRunUnsupported } from "./errors.ts";

test("denialError() answers 403 with kube's message when the webhook gives no code", () => {
  const error = denialError("policy.example.com", { message: "no latest tags" });
  expect(error.code).toBe(403);
  expect(error.message).toBe('admission webhook "policy.example.com" denied the request: no latest tags');
});

test("denialError() keeps the webhook's code, but never below 400", () => {
  expect(denialError("w", { code: 429, message: "slow down", reason: "TooManyRequests" })).toMatchObject({
    code: 429,
    reason: "TooManyRequests",
  });
  expect(denialError("w", { code: 200 }).code).toBe(400);
});

test("denialError() falls back to the reason, then to 'without explanation'", () => {
  expect(denialError("w", { reason: "Nope" }).message).toBe('admission webhook "w" denied the request: Nope');
  expect(denialError("w", undefined).message).toBe('admission webhook "w" denied the request without explanation');
});

test("newDryRunUnsupported() is kube's 400", () => {
  expect(newDryRunUnsupported("w")).toMatchObject({ code: 400, message: 'admission webhook "w" does not support dry run' });
});
