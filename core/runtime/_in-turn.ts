/**
 * The requests of one HTTP/1.1 connection, served one after another. Go's net/http server (conn.serve) reads the
 * next request ((*conn).readRequest) only after the previous handler returned and its answer was finished, so a
 * client that pipelines a create and a get of the same object sees the get find it, and a request sent behind a
 * watch waits for the watch to end. Bun's node:http hands pipelined requests over as it parses them; here a
 * request that arrives while its connection's previous answer is still open waits for that answer to close.
 * When that answer ended the connection (Connection: close, a client gone away), the requests behind it are
 * dropped unserved, as Go never reads them.
 */
import type { NodeRequest, NodeResponse } from "./fetch-adapter.ts";

export type Serve = (incoming: NodeRequest, outgoing: NodeResponse) => void;

interface Waiting {
  incoming: NodeRequest;
  outgoing: NodeResponse;
}

export class InTurn {
  /** The answer being given now (maybe finished already). */
  #answering: NodeResponse | undefined;
  /** Requests that arrived behind it, oldest first; undefined while none wait, so the usual case allocates nothing. */
  #waiting: Waiting[] | undefined;
  readonly #serve: Serve;

  constructor(serve: Serve) {
    this.#serve = serve;
  }

  /** Serves the request now when the connection's previous answer is done, else once the answers before it are. */
  take(incoming: NodeRequest, outgoing: NodeResponse): void {
    const previous = this.#answering;
    if (this.#waiting === undefined && (previous === undefined || isDone(previous))) {
      this.#answering = outgoing;
      this.#serve(incoming, outgoing);
      return;
    }
    if (this.#waiting === undefined) {
      this.#waiting = [];
      // A response closes once: `on` spares the wrapper `once` makes.
      previous!.on("close", this.#next);
    }
    this.#waiting.push({ incoming, outgoing });
    // Like Go, read no further meanwhile: a client pipelining without end queues no more than one read's worth.
    incoming.socket?.pause();
  }

  readonly #next = (): void => {
    const waiting = this.#waiting!;
    const { incoming, outgoing } = waiting.shift()!;
    if (waiting.length === 0) this.#waiting = undefined;
    const socket = incoming.socket;
    if (!socket || socket.destroyed || socket.writableEnded) return this.#dropFrom(outgoing);
    this.#answering = outgoing;
    if (this.#waiting !== undefined) outgoing.on("close", this.#next);
    // The rest of this request's body may still be to come.
    socket.resume();
    this.#serve(incoming, outgoing);
  };

  /** The connection ended with the previous answer: this request and those behind it are never served. */
  #dropFrom(outgoing: NodeResponse): void {
    const dropped = [outgoing, ...(this.#waiting ?? []).map((waiting) => waiting.outgoing)];
    this.#waiting = undefined;
    this.#answering = undefined;
    // Destroyed, each response closes, so whoever counts running requests sees them end.
    for (const response of dropped) response.destroy();
  }
}

function isDone(outgoing: NodeResponse): boolean {
  return outgoing.writableFinished || outgoing.destroyed;
}
