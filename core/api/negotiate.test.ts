import { expect, test } from "bun:test";
import { isStatusError } from "./errors.ts";
import { negotiate } from "./negotiate.ts";

const KUBECTL_GET = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";
const READ = { allowTable: true, allowProtobuf: true };
const WRITE = { allowTable: false, allowProtobuf: true };

test("a header asked again gets the same answer, kept apart for each pair of options (kube's NegotiateOutputMediaType)", () => {
  for (let i = 0; i < 3; i++) {
    expect(negotiate(KUBECTL_GET, READ)).toEqual({ format: "table", version: "v1" });
    expect(negotiate(KUBECTL_GET, WRITE)).toEqual({ format: "json" });
    expect(negotiate("application/vnd.kubernetes.protobuf", READ)).toEqual({ format: "protobuf" });
  }
  expect(() => negotiate("application/vnd.kubernetes.protobuf", { allowTable: true, allowProtobuf: false })).toThrow();
});

test("a kept answer is shared, so it is frozen", () => {
  const first = negotiate("application/yaml", READ);
  expect(negotiate("application/yaml", READ)).toBe(first);
  expect(Object.isFrozen(first)).toBe(true);
  expect(Object.isFrozen(negotiate(undefined, READ))).toBe(true);
});

test("a header nothing can answer is refused with 406 every time, and many headers do not grow what is kept", () => {
  for (let i = 0; i < 2; i++) {
    let refusal: unknown;
    try {
      negotiate("text/html", READ);
    } catch (error) {
      refusal = error;
    }
    expect(isStatusError(refusal) && refusal.code).toBe(406);
  }
  for (let i = 0; i < 1000; i++) expect(negotiate(`application/json;q=0.${i}`, READ)).toEqual({ format: "json" });
  expect(negotiate(KUBECTL_GET, READ)).toEqual({ format: "table", version: "v1" });
});

test("a 406 lists the serializers' media types whether or not the kind has protobuf (MediaTypesForSerializer)", () => {
  for (const allowProtobuf of [true, false]) {
    let refusal: unknown;
    try {
      negotiate("application/json;as=Table;v=v1;g=meta.k8s.io", { allowTable: false, allowProtobuf });
    } catch (error) {
      refusal = error;
    }
    expect(isStatusError(refusal) && refusal.message).toBe(
      "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf",
    );
  }
});
