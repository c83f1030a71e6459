import { expect, test } from "bun:test";
import { Buffer } from "node:buffer";
import { decodeContinue, encodeContinue, INCONSISTENT_CONTINUE_MESSAGE, newContinueExpired } from "./continue-token.ts";
import { isStatusError } from "./errors.ts";

const PREFIX = "/registry/pods/";
const tokenOf = (json: string) => Buffer.from(json).toString("base64url");

function invalidTokenMessage(token: string): string {
  try {
    decodeContinue(token, PREFIX);
  } catch (e) {
    if (isStatusError(e) && e.code === 400 && e.reason === "BadRequest") return e.message;
    throw e;
  }
  throw new Error("token accepted");
}

test("encodeContinue() writes kube's token: base64url JSON with the next key after the prefix", () => {
  const token = encodeContinue("/registry/pods/ns/web", PREFIX, 42);
  expect(token).not.toContain("=");
  expect(Buffer.from(token, "base64url").toString()).toBe('{"v":"meta.k8s.io/v1","rv":42,"start":"ns/web\\u0000"}');
});

test("encodeContinue() escapes <, > and & as Go's json.Marshal does", () => {
  expect(Buffer.from(encodeContinue("/registry/pods/a<b>&c", PREFIX, 1), "base64url").toString()).toBe(
    '{"v":"meta.k8s.io/v1","rv":1,"start":"a\\u003cb\\u003e\\u0026c\\u0000"}',
  );
});

test("decodeContinue() returns the resume point of a token this server issued", () => {
  const point = decodeContinue(encodeContinue("/registry/pods/ns/web", PREFIX, 42), PREFIX);
  expect(point).toEqual({ startKey: "/registry/pods/ns/web\x00", startAfter: "/registry/pods/ns/web", revision: 42 });
});

test("decodeContinue() accepts kube's tokens and the rv -1 'continue at latest' token", () => {
  expect(decodeContinue(tokenOf('{"v":"meta.k8s.io/v1","rv":7,"start":"/ns/a"}'), PREFIX).startKey).toBe("/registry/pods/ns/a");
  expect(decodeContinue(tokenOf('{"v":"meta.k8s.io/v1","rv":-1,"start":"a\\u0000"}'), PREFIX).revision).toBe(-1);
});

test("decodeContinue() rejects bad tokens with kube's 400 messages", () => {
  const prefix = "invalid continue token: continue key is not valid: ";
  const cases: [string, string][] = [
    ["a*b", "illegal base64 data at input byte 1"],
    ["abcde", "illegal base64 data at input byte 4"],
    [tokenOf("{"), "unexpected end of JSON input"],
    [tokenOf("x"), "invalid character 'x' looking for beginning of value"],
    [
      tokenOf('{"v":"meta.k8s.io/v1","rv":"1","start":"a"}'),
      "json: cannot unmarshal string into Go struct field continueToken.rv of type int64",
    ],
    [tokenOf('{"v":"meta.k8s.io/v1","rv":0,"start":"a"}'), "incorrect encoded start resourceVersion (version meta.k8s.io/v1)"],
    [tokenOf('{"v":"meta.k8s.io/v1","rv":3}'), "encoded start key empty (version meta.k8s.io/v1)"],
    [tokenOf('{"v":"v2","rv":3,"start":"a"}'), "server does not recognize this encoded version v2"],
    [tokenOf('{"v":"meta.k8s.io/v1","rv":3,"start":"../secrets/x"}'), "../secrets/x"],
    [tokenOf('{"v":"meta.k8s.io/v1","rv":3,"start":"a//b"}'), "a//b"],
  ];
  for (const [token, detail] of cases) expect(invalidTokenMessage(token)).toBe(prefix + detail);
});

test("newContinueExpired() is kube's 410 carrying a token that continues at the latest revision", () => {
  const error = newContinueExpired("/registry/pods/ns/web", PREFIX);
  const status = error.toStatus();
  expect(status.code).toBe(410);
  expect(status.reason).toBe("Expired");
  expect(status.message).toBe(INCONSISTENT_CONTINUE_MESSAGE);
  const point = decodeContinue(status.metadata.continue ?? "", PREFIX);
  expect(point).toEqual({ startKey: "/registry/pods/ns/web\x00", startAfter: "/registry/pods/ns/web", revision: -1 });
});
