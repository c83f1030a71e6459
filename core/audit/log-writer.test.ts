import { expect, test } from "bun:test";
import { coalescingWriter } from "./log-writer.ts";

test("log backend logEvent: lines handed over in one turn are written by one call, in order, before each caller goes on", async () => {
  const calls: string[][] = [];
  const writer = coalescingWriter((lines) => {
    calls.push([...lines]);
    return lines.map(() => undefined);
  });
  const first = writer.append(["a\n"]);
  const second = writer.append(["b\n", "c\n"]);
  expect(calls).toEqual([]);
  await Promise.all([first, second]);
  expect(calls).toEqual([["a\n", "b\n", "c\n"]]);
  await writer.append(["d\n"]);
  expect(calls).toEqual([["a\n", "b\n", "c\n"], ["d\n"]]);
});

test("log backend logEvent: a line that could not be written fails only its own caller (HandlePluginError per event)", async () => {
  const writer = coalescingWriter((lines) => lines.map((line) => (line === "bad\n" ? new Error("refused") : undefined)));
  const results = await Promise.allSettled([writer.append(["ok\n"]), writer.append(["bad\n"]), writer.append(["ok\n"])]);
  expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
});

test("shutdown: flush writes what waits at once, so nothing handed over is lost", () => {
  const calls: string[][] = [];
  const writer = coalescingWriter((lines) => {
    calls.push([...lines]);
    return [];
  });
  void writer.append(["last\n"]);
  writer.flush();
  expect(calls).toEqual([["last\n"]]);
});
