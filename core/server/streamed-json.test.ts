import { expect, test } from "bun:test";
import { arrayInBatches, streamJsonWithArray } from "./streamed-json.ts";

const list = (count: number) => ({
  kind: "ConfigMapList",
  apiVersion: "v1",
  metadata: { resourceVersion: "7", continue: "abc" },
  items: Array.from({ length: count }, (_, i) => ({ metadata: { name: `cm-${i}` }, data: { text: 'é"\n'.repeat(i % 50) } })),
});

test("streamJsonWithArray() writes exactly JSON.stringify of the whole, in several pieces for a large array", async () => {
  for (const count of [0, 1, 3, 20_000]) {
    const whole = list(count);
    const pieces: Uint8Array[] = [];
    const reader = streamJsonWithArray(whole, "items", arrayInBatches(whole.items, (item) => item)).getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) pieces.push(read.value);
    expect(Buffer.concat(pieces).toString()).toBe(`${JSON.stringify(whole)}\n`);
    if (count === 20_000) expect(pieces.length).toBeGreaterThan(3);
  }
});

test("streamJsonWithArray() over arrayInBatches() maps each element as it writes it and keeps the array's place among the fields", async () => {
  const table = { kind: "Table", rows: [1, 2, 3], metadata: { resourceVersion: "1" } };
  const text = await new Response(streamJsonWithArray(table, "rows", arrayInBatches([1, 2, 3], (n) => ({ cells: [n * 10] })))).text();
  expect(text).toBe(`${JSON.stringify({ ...table, rows: [{ cells: [10] }, { cells: [20] }, { cells: [30] }] })}\n`);
});
