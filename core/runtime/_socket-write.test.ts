import { describe, expect, test } from "bun:test";
import type { TLSSocket } from "node:tls";
import { writeToSocket } from "./_socket-write.ts";

/** A socket whose native handle takes at most `room` bytes per write, recording what goes where. */
function fakeSocket(room: number, queued = 0) {
  const native: string[] = [];
  const writable: string[] = [];
  const socket = {
    writable: true,
    writableLength: queued,
    writableCorked: 0,
    _handle: {
      write(bytes: Uint8Array): number {
        const taken = Math.min(room, bytes.byteLength);
        native.push(Buffer.from(bytes.subarray(0, taken)).toString());
        return taken;
      },
    },
    write(bytes: Uint8Array, written?: () => void): boolean {
      writable.push(Buffer.from(bytes).toString());
      written?.();
      return false;
    },
  };
  return { socket: socket as unknown as TLSSocket, native, writable };
}

describe("writeToSocket", () => {
  test("bytes the native socket takes whole skip the Writable; the callback comes on a later tick", async () => {
    const { socket, native, writable } = fakeSocket(100);
    let called = false;
    expect(writeToSocket(socket, Buffer.from("hello"), () => (called = true))).toBe(true);
    expect(called).toBe(false);
    await new Promise((resolve) => process.nextTick(resolve));
    expect(called).toBe(true);
    expect(native).toEqual(["hello"]);
    expect(writable).toEqual([]);
  });

  test("what the native socket does not take goes through the Writable, after what it took", () => {
    const { socket, native, writable } = fakeSocket(2);
    expect(writeToSocket(socket, Buffer.from("hello"))).toBe(false);
    expect(native).toEqual(["he"]);
    expect(writable).toEqual(["llo"]);
  });

  test("bytes queued in the Writable keep their turn: the new ones queue behind them", () => {
    const { socket, native, writable } = fakeSocket(100, 10);
    writeToSocket(socket, Buffer.from("hello"));
    expect(native).toEqual([]);
    expect(writable).toEqual(["hello"]);
  });

  test("a socket without a native handle (Deno, a closed socket) writes through the Writable", () => {
    const { socket, writable } = fakeSocket(100);
    (socket as unknown as { _handle: null })._handle = null;
    writeToSocket(socket, Buffer.from("hello"));
    expect(writable).toEqual(["hello"]);
  });
});
