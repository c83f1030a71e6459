/**
 * Writes an answer's bytes to a TLS socket of kubun's HTTP/1.x layer. Bun's node:tls socket takes a write through
 * its Writable (writeOrBuffer, `_write`, a timer refresh and a tick per callback): ~2 µs per /healthz under load
 * (bench/profiles/request-path.md, twelfth session). When nothing is queued in that Writable, the bytes go to the
 * native socket beneath it at once, in the same order they would have; what it does not take at once (a full send
 * buffer) goes through the Writable, which holds it for the next drain. Elsewhere (Deno, a socket without Bun's
 * handle) every write takes the Writable.
 */
import process from "node:process";
import type { TLSSocket } from "node:tls";

/** Bun's native socket under a node:net socket: `write` answers how many bytes it took (0 when the buffer is full). */
interface NativeSocket {
  write(bytes: Uint8Array): number;
}

type Written = (error?: Error | null) => void;

/**
 * Writes `bytes` after everything written before; `written` is called once they are handed to the socket (on a later
 * tick, as node:tls calls back) or with the error that kept them from it. Returns false when the caller should wait
 * for "drain" before writing more, as `socket.write` does.
 */
export function writeToSocket(socket: TLSSocket, bytes: Uint8Array, written?: Written): boolean {
  const handle = (socket as { _handle?: Partial<NativeSocket> | null })._handle;
  if (typeof handle?.write !== "function" || !socket.writable || socket.writableLength > 0 || socket.writableCorked > 0) {
    return socket.write(bytes, written);
  }
  const taken = handle.write(bytes);
  if (taken === bytes.byteLength) {
    if (written) process.nextTick(written);
    return true;
  }
  return socket.write(taken > 0 ? bytes.subarray(taken) : bytes, written);
}
