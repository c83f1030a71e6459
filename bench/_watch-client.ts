/**
 * A lean watch client for the fan-out benchmark: one TLS connection per watch (as client-go without HTTP/2 opens
 * them), an HTTP/1.1 GET read as a chunked stream of JSON lines, each line reported by the object name it carries.
 * Lines are not JSON-parsed so that the load generator spends as little of the shared CPU as it can.
 */
export interface WatchTarget {
  host: string;
  port: number;
  ca: string;
  cert?: string;
  key?: string;
}

export interface OpenWatch {
  /** Resolves once the response head arrived with status 200. */
  started: Promise<void>;
  close(): void;
}

const NAME = /"name":"([^"]*)"/;

/** Opens `path` as a watch; `onEvent` gets the metadata.name of each event line as it arrives. */
export function openWatch(target: WatchTarget, path: string, onEvent: (name: string) => void): OpenWatch {
  const reader = new ChunkedLineReader((line) => {
    const match = NAME.exec(line);
    if (match) onEvent(match[1]!);
  });
  let head: string | null = "";
  let closed = false;
  let started!: () => void;
  let failed!: (error: Error) => void;
  const startedPromise = new Promise<void>((resolve, reject) => {
    started = resolve;
    failed = reject;
  });
  const connecting = Bun.connect({
    hostname: target.host,
    port: target.port,
    tls: { ca: target.ca, cert: target.cert, key: target.key },
    socket: {
      handshake(socket, success, error) {
        if (!success) return failed(new Error(`TLS handshake failed: ${error?.message}`));
        socket.setNoDelay(true);
        socket.write(`GET ${path} HTTP/1.1\r\nHost: ${target.host}:${target.port}\r\nAccept: application/json\r\n\r\n`);
      },
      data(_socket, data) {
        const text = data.toString("latin1");
        if (head === null) return reader.push(text);
        head += text;
        const end = head.indexOf("\r\n\r\n");
        if (end < 0) return;
        if (head.slice(9, 12) !== "200") return failed(new Error(`watch answered ${head.slice(0, 300)}`));
        if (!/transfer-encoding: chunked/i.test(head.slice(0, end))) return failed(new Error("watch response is not chunked"));
        const rest = head.slice(end + 4);
        head = null;
        started();
        reader.push(rest);
      },
      error: (_socket, error) => failed(error),
      close: () => failed(new Error("watch connection closed before its response")),
    },
  });
  connecting.catch(failed);
  return {
    started: startedPromise,
    close: () => {
      if (closed) return;
      closed = true;
      connecting.then((socket) => socket.end(), () => undefined);
    },
  };
}

/** Decodes HTTP/1.1 chunked transfer encoding (latin1 text, so lengths are byte counts) into newline-ended lines. */
export class ChunkedLineReader {
  #buffer = "";
  /** Bytes of chunk data still to come in the current chunk; -1 while reading a chunk-size line. */
  #remaining = -1;
  #line = "";
  readonly #onLine: (line: string) => void;

  constructor(onLine: (line: string) => void) {
    this.#onLine = onLine;
  }

  push(text: string): void {
    this.#buffer += text;
    for (;;) {
      if (this.#remaining < 0) {
        const eol = this.#buffer.indexOf("\r\n");
        if (eol < 0) return;
        this.#remaining = parseInt(this.#buffer.slice(0, eol), 16);
        this.#buffer = this.#buffer.slice(eol + 2);
        if (this.#remaining === 0) return;
      }
      // The chunk's data and its trailing CRLF.
      if (this.#buffer.length < this.#remaining + 2) {
        if (this.#buffer.length > 0 && this.#buffer.length <= this.#remaining) {
          this.#remaining -= this.#buffer.length;
          this.#data(this.#buffer);
          this.#buffer = "";
        }
        return;
      }
      this.#data(this.#buffer.slice(0, this.#remaining));
      this.#buffer = this.#buffer.slice(this.#remaining + 2);
      this.#remaining = -1;
    }
  }

  #data(text: string): void {
    let start = 0;
    for (let eol = text.indexOf("\n"); eol >= 0; eol = text.indexOf("\n", start)) {
      this.#onLine(this.#line + text.slice(start, eol));
      this.#line = "";
      start = eol + 1;
    }
    this.#line += text.slice(start);
  }
}
