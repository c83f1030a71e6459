import { afterEach, expect, test } from "bun:test";
import { createServer, type Server } from "node:http";
import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import { type PushSink, type PushSource, pushStream, respondDirectly } from "./push-stream.ts";

const text = new TextEncoder();
let server: Server | undefined;
afterEach(() => server?.close());

/** A source writing `chunks` at once and ending; records what happened to it. */
function recordingSource(chunks: string[], options: { end?: boolean } = {}) {
  const seen = { started: 0, cancelled: 0, sink: undefined as PushSink | undefined };
  const source: PushSource = {
    start(sink) {
      seen.started++;
      seen.sink = sink;
      for (const chunk of chunks) sink.write(text.encode(chunk));
      if (options.end !== false) sink.end();
    },
    cancel: () => void seen.cancelled++,
  };
  return { source, seen };
}

/** A node:http server answering GET /push with the source's body written directly, and anything else with "next". */
async function serve(source: () => PushSource): Promise<number> {
  server = createServer((request, response) => {
    if (request.url !== "/push") return void response.end("next");
    const taken = respondDirectly(new Response(pushStream(source()), { headers: { "Content-Type": "application/json" } }), response);
    expect(taken).toBe(true);
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** Sends raw HTTP/1.1 requests on one connection and collects everything answered until `done` says so. */
async function exchange(port: number, requests: string, done: (answer: string) => boolean): Promise<string> {
  const socket = connect(port, "127.0.0.1");
  let answer = "";
  await new Promise<void>((resolve, reject) => {
    socket.on("data", (data) => {
      answer += data.toString("latin1");
      if (done(answer)) resolve();
    });
    socket.on("error", reject);
    socket.write(requests);
  });
  socket.destroy();
  return answer;
}

test("a push body read as a ReadableStream yields its chunks and starts its source only for a reader", async () => {
  const { source, seen } = recordingSource(["a", "b"]);
  const stream = pushStream(source);
  await Bun.sleep(1);
  expect(seen.started).toBe(0);
  expect(await new Response(stream).text()).toBe("ab");
  expect(seen.started).toBe(1);
});

test("a push body's source is told to wait while its reader has not read, and resumed when it reads", async () => {
  const { source, seen } = recordingSource([], { end: false });
  const reader = pushStream(source).getReader();
  const first = reader.read();
  await Bun.sleep(0);
  expect(seen.sink!.write(text.encode("1"))).toBe(false);
  let drained = false;
  seen.sink!.onDrain(() => (drained = true));
  expect(new TextDecoder().decode((await first).value)).toBe("1");
  expect(drained).toBe(false);
  const second = reader.read();
  await Bun.sleep(0);
  expect(drained).toBe(true);
  seen.sink!.end();
  expect((await second).done).toBe(true);
});

test("cancelling a push body's reader cancels its source", async () => {
  const { source, seen } = recordingSource(["a"], { end: false });
  const reader = pushStream(source).getReader();
  await reader.read();
  await reader.cancel();
  expect(seen.cancelled).toBe(1);
});

test("respondDirectly: the chunks go to the socket as HTTP/1.1 chunks, the body ends with the last chunk and the connection serves the next request", async () => {
  const port = await serve(() => recordingSource(['{"a":1}\n', "xyz"]).source);
  const answer = await exchange(
    port,
    "GET /push HTTP/1.1\r\nHost: x\r\n\r\nGET /next HTTP/1.1\r\nHost: x\r\n\r\n",
    (text) => text.endsWith("next"),
  );
  const [first, second] = answer.split(/(?=HTTP\/1\.1 )/);
  expect(first).toStartWith("HTTP/1.1 200 OK\r\n");
  expect(first!.toLowerCase()).toContain("content-type: application/json\r\n");
  expect(first!.toLowerCase()).toContain("transfer-encoding: chunked\r\n");
  expect(first).toEndWith('\r\n\r\n8\r\n{"a":1}\n\r\n3\r\nxyz\r\n0\r\n\r\n');
  expect(second).toStartWith("HTTP/1.1 200 OK\r\n");
});

test("respondDirectly: a client going away before the body ended cancels the source", async () => {
  const { source, seen } = recordingSource(["a"], { end: false });
  const port = await serve(() => source);
  await exchange(port, "GET /push HTTP/1.1\r\nHost: x\r\n\r\n", (text) => text.includes("1\r\na\r\n"));
  for (let i = 0; i < 100 && seen.cancelled === 0; i++) await Bun.sleep(10);
  expect(seen.cancelled).toBe(1);
});

test("respondDirectly leaves other bodies to the adapter", async () => {
  server = createServer((_request, response) => {
    const plain = respondDirectly(new Response("plain"), response);
    const ordinary = respondDirectly(new Response(new ReadableStream({ pull: (c) => c.close() })), response);
    response.end(String([plain, ordinary]));
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe("false,false");
});

test("respondDirectly leaves an HTTP/1.0 request's push body to node:http, which has no chunks for it", async () => {
  let taken: boolean | undefined;
  server = createServer((_request, response) => {
    taken = respondDirectly(new Response(pushStream(recordingSource(["a"]).source)), response);
    response.end("plain");
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const answer = await exchange(port, "GET /push HTTP/1.0\r\n\r\n", (text) => text.endsWith("plain"));
  expect(taken).toBe(false);
  expect(answer).not.toContain("chunked");
});
