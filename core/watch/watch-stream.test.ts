import { expect, test } from "bun:test";
import type { StorageEvent } from "../storage/storage.ts";
import { WatchOverflowError } from "./watch.ts";
import { WatchStream } from "./watch-stream.ts";

const event = (revision: number): StorageEvent => ({
  type: "ADDED",
  revision,
  kv: { key: `/a/${revision}`, value: "v", createRevision: revision, modRevision: revision },
});

async function drain(stream: WatchStream, count: number) {
  const revisions: (number | string)[] = [];
  for (let i = 0; i < count; i++) {
    const { value } = await stream.next();
    revisions.push(value!.kind === "event" ? value!.event.revision : `progress@${value!.revision}`);
  }
  return revisions;
}

test("events held during replay follow it, without the revisions it already covered", async () => {
  let ended = 0;
  const stream = new WatchStream(2, { queueLimit: 10, onEnd: () => ended++ });
  stream.deliver(event(4));
  stream.progress(4);
  stream.deliver(event(5));
  stream.replayed([event(3), event(4)]);
  stream.deliver(event(5));
  stream.deliver(event(6));
  expect(await drain(stream, 5)).toEqual([3, 4, "progress@4", 5, 6]);
  stream.close();
  expect(ended).toBe(1);
});

test("a stream overflows on held events before its replay arrives", async () => {
  let ended = 0;
  const stream = new WatchStream(0, { queueLimit: 2, onEnd: () => ended++ });
  for (const revision of [1, 2, 3]) stream.deliver(event(revision));
  expect(ended).toBe(1);
  expect(await stream.next().catch((error) => error)).toBeInstanceOf(WatchOverflowError);
  stream.replayed([event(1)]);
  expect(await stream.next()).toEqual({ done: true, value: undefined });
});

test("a replay larger than the queue limit is not an overflow", async () => {
  const stream = new WatchStream(0, { queueLimit: 2, onEnd: () => undefined });
  stream.replayed([1, 2, 3, 4, 5].map(event));
  expect(await drain(stream, 5)).toEqual([1, 2, 3, 4, 5]);
});

test("a progress request before any event reports the start revision", async () => {
  const stream = new WatchStream(7, { queueLimit: 2, onEnd: () => undefined });
  stream.replayed([]);
  stream.progress(3);
  expect(await drain(stream, 1)).toEqual(["progress@7"]);
});
