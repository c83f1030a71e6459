/** Every built-in kind of the catalog with a protobuf encoding survives JSON → protobuf → JSON unchanged. */
import { expect, test } from "bun:test";
import { decodeProtobufObject, encodeProtobufObject, hasProtobufEncoding } from "../api/protobuf/mod.ts";
import { builtInSchemas } from "../schema/lookup.ts";
import { builtInCatalog } from "./catalog.ts";
import { sampleObject } from "./schema-samples.ts";

function apiVersionOf(type: { group: string; version: string }): string {
  return type.group === "" ? type.version : `${type.group}/${type.version}`;
}

function roundTrip(object: Record<string, unknown>): Record<string, unknown> {
  return decodeProtobufObject(encodeProtobufObject(object, object.apiVersion as string, object.kind as string)).object;
}

const encodable = builtInCatalog().all().filter((type) => hasProtobufEncoding(apiVersionOf(type), type.kind));

test("every built-in kind of the catalog has a protobuf encoding but the two hand-written ones absent from 1.26's OpenAPI", () => {
  const without = builtInCatalog().all().filter((type) => !encodable.includes(type)).map((type) => `${apiVersionOf(type)} ${type.kind}`);
  expect(without.sort()).toEqual(["authentication.k8s.io/v1beta1 TokenReview", "policy/v1beta1 PodSecurityPolicy"]);
});

for (const type of encodable) {
  const label = `${apiVersionOf(type)} ${type.kind}`;
  test(`a filled-in ${label} and its ${type.listKind} survive JSON → protobuf → JSON unchanged`, () => {
    const object = sampleObject(builtInSchemas, type);
    expect(object).toBeDefined();
    expect(roundTrip(object!)).toEqual(object!);
    const { apiVersion: _apiVersion, kind: _kind, ...item } = object!;
    const list = {
      apiVersion: object!.apiVersion,
      kind: type.listKind,
      metadata: { resourceVersion: "12", continue: "next" },
      items: [item],
    };
    if (hasProtobufEncoding(list.apiVersion as string, list.kind)) expect(roundTrip(list)).toEqual(list);
  });
}
