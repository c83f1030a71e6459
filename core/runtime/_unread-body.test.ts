import { expect, test } from "bun:test";
import { EventEmitter } from "node:events";
import type { IncomingMessage } from "node:http";
import { followBody, MAX_POST_HANDLER_READ_BYTES, settleUnreadBody } from "./_unread-body.ts";

/** A request whose body arrives when `send` says, counted as the body stream of fetch-adapter.ts counts it. */
function incoming(headers: Record<string, string>, httpVersionMajor = 1) {
  const emitter = new EventEmitter();
  let paused = false;
  const request = Object.assign(emitter, {
    headers,
    httpVersionMajor,
    pause: () => (paused = true),
    resume: () => (paused = false),
  }) as unknown as IncomingMessage;
  const progress = followBody(request);
  request.on("data", (chunk: Uint8Array) => (progress.received += chunk.byteLength));
  request.once("end", () => (progress.ended = true));
  return {
    request,
    progress,
    send: (bytes: number) => request.emit("data", new Uint8Array(bytes)),
    end: () => request.emit("end"),
    paused: () => paused,
  };
}

/** The fetch Request the handler got; its body locked when a reader holds it. */
function unlocked(): Request {
  return new Request("https://h/", { method: "POST", body: "x" });
}

function locked(): Request {
  const request = unlocked();
  request.body!.getReader();
  return request;
}

test("a body that all came, or a request that sends none, leaves nothing to settle", () => {
  const body = incoming({ "content-length": "5" });
  body.send(5);
  body.end();
  expect(settleUnreadBody(body.request, unlocked())).toBeUndefined();
  expect(settleUnreadBody(incoming({}).request, unlocked())).toBeUndefined();
  expect(settleUnreadBody(incoming({ "content-length": "0" }).request, unlocked())).toBeUndefined();
});

test("(*body).Close: a rest that ends within maxPostHandlerReadBytes is read and dropped, and the connection kept", async () => {
  const body = incoming({ "transfer-encoding": "chunked" });
  const settled = settleUnreadBody(body.request, unlocked())!;
  expect(body.progress.dropping).toBe(true);
  body.send(MAX_POST_HANDLER_READ_BYTES - 1);
  body.end();
  expect(await settled).toBe(false);
});

test("(*body).Close: a rest that does not end within maxPostHandlerReadBytes closes the connection, the socket left paused", async () => {
  const body = incoming({ "transfer-encoding": "chunked" });
  const settled = settleUnreadBody(body.request, unlocked())!;
  body.send(MAX_POST_HANDLER_READ_BYTES);
  expect(await settled).toBe(true);
  expect(body.paused()).toBe(true);
});

test("(*body).Close: a declared rest longer than maxPostHandlerReadBytes closes the connection without reading it", async () => {
  const body = incoming({ "content-length": String(MAX_POST_HANDLER_READ_BYTES + 100) });
  body.send(99);
  expect(await settleUnreadBody(body.request, unlocked())!).toBe(true);
  const near = incoming({ "content-length": String(MAX_POST_HANDLER_READ_BYTES + 100) });
  near.send(100);
  const settled = settleUnreadBody(near.request, unlocked())!;
  near.send(MAX_POST_HANDLER_READ_BYTES - 1);
  near.end();
  expect(await settled).toBe(false);
});

test("serverConn.wroteFrame: over HTTP/2 an unfinished body resets the stream, nothing more read; a stream ended with its headers has none", async () => {
  const body = incoming({}, 2);
  Object.assign(body.request, { stream: { endAfterHeaders: false } });
  expect(await settleUnreadBody(body.request, unlocked())!).toBe(true);
  const bodiless = incoming({}, 2);
  Object.assign(bodiless.request, { stream: { endAfterHeaders: true } });
  expect(settleUnreadBody(bodiless.request, unlocked())).toBeUndefined();
});

test("a body a reader still holds (a handler the deadline answered for) is not drained: the connection ends with the answer", async () => {
  const body = incoming({ "transfer-encoding": "chunked" });
  expect(await settleUnreadBody(body.request, locked())!).toBe(true);
  const cancelled = incoming({ "transfer-encoding": "chunked" });
  cancelled.progress.cancelled = true;
  const settled = settleUnreadBody(cancelled.request, locked())!;
  cancelled.end();
  expect(await settled).toBe(false);
});
