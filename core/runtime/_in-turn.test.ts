import { expect, test } from "bun:test";
import { EventEmitter } from "node:events";
import type { NodeRequest, NodeResponse } from "./fetch-adapter.ts";
import { InTurn } from "./_in-turn.ts";

/** One connection's socket, as the requests on it name it. */
function connection() {
  const socket = {
    destroyed: false,
    writableEnded: false,
    paused: false,
    pause: () => (socket.paused = true),
    resume: () => (socket.paused = false),
  };
  return socket;
}

/** A request on `socket` and its response, which `finish` writes out and closes as node:http does. */
function exchange(name: string, socket = connection()) {
  const response = Object.assign(new EventEmitter(), {
    name,
    writableFinished: false,
    destroyed: false,
    destroy() {
      response.destroyed = true;
      response.emit("close");
    },
  });
  const finish = () => {
    response.writableFinished = true;
    response.emit("close");
  };
  return {
    incoming: { socket } as unknown as NodeRequest,
    outgoing: response as unknown as NodeResponse,
    response,
    finish,
  };
}

function recorder() {
  const served: string[] = [];
  const turns = new InTurn((_incoming, outgoing) => served.push((outgoing as unknown as { name: string }).name));
  return { served, turns };
}

test("conn.serve: a request arriving after the previous answer finished is served at once", () => {
  const { served, turns } = recorder();
  const first = exchange("first");
  turns.take(first.incoming, first.outgoing);
  first.finish();
  const second = exchange("second");
  turns.take(second.incoming, second.outgoing);
  expect(served).toEqual(["first", "second"]);
});

test("(*conn).readRequest after finishRequest: pipelined requests wait for each answer before them, in the order sent, the connection unread meanwhile", () => {
  const { served, turns } = recorder();
  const socket = connection();
  const [a, b, c] = ["a", "b", "c"].map((name) => exchange(name, socket));
  for (const { incoming, outgoing } of [a!, b!, c!]) turns.take(incoming, outgoing);
  expect(served).toEqual(["a"]);
  expect(socket.paused).toBe(true);
  a!.finish();
  expect(served).toEqual(["a", "b"]);
  // The request served may still be sending its body.
  expect(socket.paused).toBe(false);
  const d = exchange("d", socket);
  turns.take(d.incoming, d.outgoing);
  b!.finish();
  expect(served).toEqual(["a", "b", "c"]);
  c!.finish();
  expect(served).toEqual(["a", "b", "c", "d"]);
});

test("closeAfterReply: requests behind an answer that ended the connection are never served, and their responses close", () => {
  const { served, turns } = recorder();
  const socket = connection();
  const [first, second, third] = ["first", "second", "third"].map((name) => exchange(name, socket));
  for (const { incoming, outgoing } of [first!, second!, third!]) turns.take(incoming, outgoing);
  socket.writableEnded = true;
  first!.finish();
  expect(served).toEqual(["first"]);
  expect([second!.response.destroyed, third!.response.destroyed]).toEqual([true, true]);
});
