import { expect, test } from "bun:test";
import { isStatusError } from "../../api/errors.ts";
import { parsePodLogOptions } from "./pod-log-options.ts";

function failure(query: string): { code: number; message: string } {
  try {
    parsePodLogOptions(new URLSearchParams(query), "p");
  } catch (e) {
    if (isStatusError(e)) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error("no error");
}

test("parsePodLogOptions reads kube's PodLogOptions query parameters", () => {
  const options = parsePodLogOptions(
    new URLSearchParams("container=app&follow=true&timestamps=1&tailLines=3&limitBytes=10&sinceSeconds=5"),
    "p",
  );
  expect(options).toMatchObject({
    container: "app",
    follow: true,
    timestamps: true,
    previous: false,
    tailLines: 3,
    limitBytes: 10,
    sinceSeconds: 5,
  });
});

test("ValidatePodLogOptions: negative tailLines is a 422", () => {
  expect(failure("tailLines=-1")).toEqual({
    code: 422,
    message: 'PodLogOptions "p" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0',
  });
});

test("ValidatePodLogOptions: limitBytes and sinceSeconds must be greater than 0", () => {
  expect(failure("limitBytes=0&sinceSeconds=0").message).toBe(
    'PodLogOptions "p" is invalid: [limitBytes: Invalid value: 0: must be greater than 0, sinceSeconds: Invalid value: 0: must be greater than 0]',
  );
});

test("ValidatePodLogOptions: sinceTime and sinceSeconds together are forbidden", () => {
  expect(failure("sinceSeconds=5&sinceTime=2024-01-01T00:00:00Z").message).toBe(
    'PodLogOptions "p" is invalid: : Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified',
  );
});

test("a tailLines that is not a number is a 400", () => {
  expect(failure("tailLines=abc").code).toBe(400);
});
