// deno-lint-ignore-file no-explicit-any -- decoded JSON is read by path in assertions
import { expect, test } from "bun:test";
import { decodeProtobufObject, encodeProtobufObject } from "./codec.ts";
import { decodeWatchEventFrames, encodeWatchEventFrame } from "./watch-frames.ts";

const namespace = {
  apiVersion: "v1",
  kind: "Namespace",
  metadata: { name: "a", resourceVersion: "5" },
  spec: {},
  status: { phase: "Active" },
};

test("a watch frame is a big-endian length followed by a bare WatchEvent holding the magic-prefixed object", () => {
  const object = encodeProtobufObject(namespace, "v1", "Namespace");
  const frame = encodeWatchEventFrame("ADDED", object);
  const length = new DataView(frame.buffer).getUint32(0);
  expect(length).toBe(frame.length - 4);
  // WatchEvent: field 1 type "ADDED", field 2 RawExtension { field 1 raw = the object's full encoding }.
  expect([...frame.subarray(4, 11)]).toEqual([0x0a, 5, ...new TextEncoder().encode("ADDED")]);
  expect(frame[11]).toBe(0x12);
  const rawStart = frame.length - object.length;
  expect([...frame.subarray(rawStart, rawStart + 4)]).toEqual([0x6b, 0x38, 0x73, 0x00]);
  expect(frame.subarray(rawStart)).toEqual(object);
});

test("decodeWatchEventFrames() returns whole frames and leaves a partial one for the next chunk", () => {
  const first = encodeWatchEventFrame("ADDED", encodeProtobufObject(namespace, "v1", "Namespace"));
  const second = encodeWatchEventFrame(
    "DELETED",
    encodeProtobufObject({ ...namespace, status: { phase: "Terminating" } }, "v1", "Namespace"),
  );
  const stream = new Uint8Array([...first, ...second.subarray(0, 10)]);
  const { events, consumed } = decodeWatchEventFrames(stream);
  expect(consumed).toBe(first.length);
  expect(events.map((e) => e.type)).toEqual(["ADDED"]);
  expect(decodeProtobufObject(events[0].object).object).toEqual(namespace);
  const rest = decodeWatchEventFrames(second);
  expect(rest.events.map((e) => [e.type, (decodeProtobufObject(e.object).object as any).status.phase])).toEqual([[
    "DELETED",
    "Terminating",
  ]]);
});
