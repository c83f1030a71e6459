// deno-lint-ignore-file no-explicit-any -- decoded JSON is read by path in assertions
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { encodeProtobufObject } from "../core/api/protobuf/mod.ts";
import { messageFromJson } from "../core/api/protobuf/mod.ts";
import { FIXTURES } from "../core/api/protobuf/testing.ts";
import { API_DATA_DIR } from "./gen-protobuf.ts";
import { loadProtoRoot } from "./protobuf-load.ts";

test("a Pod encodes byte for byte as protobufjs encodes it with kube's original .proto files", () => {
  if (!existsSync(API_DATA_DIR)) {
    console.log(`protobuf-upstream: ${API_DATA_DIR} is absent, nothing to compare`);
    return;
  }
  const upstream = loadProtoRoot(join(API_DATA_DIR, "proto"));
  const pod = upstream.lookupType("k8s.io.api.core.v1.Pod");
  const unknown = upstream.lookupType("k8s.io.apimachinery.pkg.runtime.Unknown");
  const raw = pod.encode(messageFromJson("k8s.io.api.core.v1.Pod", FIXTURES.Pod)!).finish();
  const envelope = unknown.encode({ typeMeta: { apiVersion: "v1", kind: "Pod" }, raw, contentEncoding: "", contentType: "" }).finish();
  const expected = new Uint8Array([0x6b, 0x38, 0x73, 0x00, ...envelope]);
  expect(encodeProtobufObject(FIXTURES.Pod, "v1", "Pod")).toEqual(expected);
  const decoded = pod.toObject(pod.decode(raw), { longs: Number, defaults: false }) as any;
  expect(decoded.metadata.name).toBe("web-0");
  expect(decoded.spec.containers[0].resources.limits.cpu).toEqual({ string: "500m" });
});
