import { expect, test } from "bun:test";
import { AllocationBitmap } from "./bitmap.ts";

test("the stored bytes are kube's big.Int.Bytes(): big-endian with no leading zero byte (AllocationBitmap.Snapshot)", () => {
  const bitmap = AllocationBitmap.empty();
  expect([...bitmap.toKubeBytes()]).toEqual([]);
  bitmap.set(0);
  expect([...bitmap.toKubeBytes()]).toEqual([0x01]);
  bitmap.set(9);
  // 2^9 + 2^0 = 0x0201.
  expect([...bitmap.toKubeBytes()]).toEqual([0x02, 0x01]);
  bitmap.set(23);
  expect([...bitmap.toKubeBytes()]).toEqual([0x80, 0x02, 0x01]);
  bitmap.clear(23);
  expect([...bitmap.toKubeBytes()]).toEqual([0x02, 0x01]);
});

test("bytes kube wrote restore the same offsets (AllocationBitmap.Restore: big.Int.SetBytes)", () => {
  const restored = AllocationBitmap.fromKubeBytes(new Uint8Array([0x01, 0x00, 0x05]));
  expect([...restored.offsets()]).toEqual([0, 2, 16]);
  expect(restored.has(16)).toBe(true);
  expect(restored.has(1)).toBe(false);
  expect([...restored.toKubeBytes()]).toEqual([0x01, 0x00, 0x05]);
});
