import { expect, test } from "bun:test";
import { WatchStream } from "./watch-stream.ts";

function streamOf(chunks: string[], options: { keepOpen?: boolean } = {}): Response {
  const encoder = new TextEncoder();
  return new Response(
    new ReadableStream({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
        if (!options.keepOpen) controller.close();
      },
    }),
  );
}

test("next() joins events split across chunks and splits chunks holding several events", async () => {
  const stream = new WatchStream(
    streamOf(['{"type":"ADDED","obj', 'ect":{"a":1}}\n{"type":"MODIFIED","object":{}}\n{"type":"DEL', 'ETED","object":{}}\n']),
  );
  expect((await stream.next())?.type).toBe("ADDED");
  expect((await stream.next())?.type).toBe("MODIFIED");
  expect((await stream.next())?.type).toBe("DELETED");
  expect(await stream.next()).toBeUndefined();
});

test("next() answers undefined after the timeout when no event arrives on an open stream", async () => {
  const stream = new WatchStream(streamOf([], { keepOpen: true }));
  const started = Date.now();
  expect(await stream.next(100)).toBeUndefined();
  expect(Date.now() - started).toBeGreaterThanOrEqual(90);
  expect(await stream.ended(50)).toBe(false);
  await stream.close();
});

test("until() fails with the events seen when the stream ends first", async () => {
  const stream = new WatchStream(streamOf(['{"type":"ADDED","object":{"metadata":{"name":"x","resourceVersion":"5"}}}\n']));
  await expect(stream.until((event) => event.type === "DELETED", 500)).rejects.toThrow("ADDED x@5");
});
