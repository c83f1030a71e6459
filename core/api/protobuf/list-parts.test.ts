import { expect, test } from "bun:test";
import { encodeProtobufObject } from "./codec.ts";
import { protobufListParts } from "./list-parts.ts";

test("protobufListParts() joined are exactly the whole list's encoding, empty or with items of any size", () => {
  for (const count of [0, 1, 3, 200]) {
    const list = {
      apiVersion: "v1",
      kind: "ConfigMapList",
      metadata: { resourceVersion: "12", continue: "abc", remainingItemCount: 5 },
      items: Array.from({ length: count }, (_, i) => ({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: `cm-${i}`, resourceVersion: String(i + 1), labels: { app: "x" } },
        data: { payload: "é".repeat(i * 40) },
      })),
    };
    const parts = protobufListParts(list, "v1", "ConfigMapList");
    const items = list.items.map((item) => parts.item(item));
    const size = items.reduce((sum, bytes) => sum + bytes.length, 0);
    const joined = Buffer.concat([parts.head(size), ...items, parts.tail]);
    expect(joined.equals(Buffer.from(encodeProtobufObject(list, "v1", "ConfigMapList")))).toBe(true);
  }
});
