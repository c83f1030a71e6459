import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { API_DATA_DIR } from "./gen-protobuf.ts";
import { loadProtoRoot } from "./protobuf-load.ts";
import { POINTER_SCALARS_WITH_MEANINGFUL_ZERO } from "./protobuf-pointer-facts.ts";

const SCALAR_TYPES = new Set(["bool", "int32", "int64", "double", "string"]);

test("every pointer fact names a singular scalar field of kube's generated.proto", () => {
  if (!existsSync(API_DATA_DIR)) {
    console.log(`protobuf-pointer-facts: ${API_DATA_DIR} is absent, nothing to compare`);
    return;
  }
  const root = loadProtoRoot(join(API_DATA_DIR, "proto"));
  const wrong = [...POINTER_SCALARS_WITH_MEANINGFUL_ZERO].filter((path) => {
    const dot = path.lastIndexOf(".");
    const field = root.lookupType(path.slice(0, dot)).fields[path.slice(dot + 1)];
    return field === undefined || field.repeated || !SCALAR_TYPES.has(field.type);
  });
  expect(wrong).toEqual([]);
});
