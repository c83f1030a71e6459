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

/** A body its handler read `consumed` bytes of and then gave up, as kube's limitedReadBody closes it. */
function givenUp(headers: Record<string, string>, consumed: number) {
  const body = incoming(headers);
  body.send(consumed);
  body.progress.consumed = consumed;
  body.progress.cancelled = true;
  return body;
}

test("(*body).Close: a given-up rest that ends within maxPostHandlerReadBytes is read and dropped, and the connection kept", async () => {
  const body = givenUp({ "transfer-encoding": "chunked" }, 10);
  const settled = settleUnreadBody(body.request, locked())!;
  expect(body.progress.dropping).toBe(true);
  body.send(MAX_POST_HANDLER_READ_BYTES - 1);
  body.end();
  expect(await settled).toBe(false);
});

test("(*body).Close: a given-up rest of maxPostHandlerReadBytes without its end closes the connection, the socket left paused", async () => {
  const body = givenUp({ "transfer-encoding": "chunked" }, 10);
  const settled = settleUnreadBody(body.request, locked())!;
  body.send(MAX_POST_HANDLER_READ_BYTES);
  expect(await settled).toBe(true);
  expect(body.paused()).toBe(true);
});

test("(*body).Close: a declared rest past what the handler consumed of maxPostHandlerReadBytes or more closes without reading it", async () => {
  const declared = { "content-length": String(MAX_POST_HANDLER_READ_BYTES + 100) };
  expect(await settleUnreadBody(givenUp(declared, 100).request, locked())!).toBe(true);
  const near = givenUp(declared, 101);
  const settled = settleUnreadBody(near.request, locked())!;
  near.send(MAX_POST_HANDLER_READ_BYTES - 1);
  near.end();
  expect(await settled).toBe(false);
});

test("(*chunkWriter).writeHeader: an untouched chunked body is read up to maxPostHandlerReadBytes+1, counting what the stream pulled in early", async () => {
  const exact = incoming({ "transfer-encoding": "chunked" });
  exact.send(1000);
  const kept = settleUnreadBody(exact.request, unlocked())!;
  exact.send(MAX_POST_HANDLER_READ_BYTES - 1000);
  exact.end();
  expect(await kept).toBe(false);
  const over = incoming({ "transfer-encoding": "chunked" });
  over.send(1000);
  const closed = settleUnreadBody(over.request, unlocked())!;
  over.send(MAX_POST_HANDLER_READ_BYTES + 1 - 1000);
  expect(await closed).toBe(true);
});

test("(*chunkWriter).writeHeader: an untouched body's declared length is its rest, however much the stream pulled in early", async () => {
  const body = incoming({ "content-length": String(MAX_POST_HANDLER_READ_BYTES) });
  body.send(64 << 10);
  expect(await settleUnreadBody(body.request, unlocked())!).toBe(true);
  const under = incoming({ "content-length": String(MAX_POST_HANDLER_READ_BYTES - 1) });
  under.send(64 << 10);
  const settled = settleUnreadBody(under.request, unlocked())!;
  under.send(MAX_POST_HANDLER_READ_BYTES - 1 - (64 << 10));
  under.end();
  expect(await settled).toBe(false);
});

test("the drain has a deadline: a body that stalls gets its answer with the connection's end", async () => {
  const body = incoming({ "content-length": "100" });
  expect(await settleUnreadBody(body.request, unlocked())!).toBe(true);
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
