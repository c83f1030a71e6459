/** Reads a watch response (one JSON event per line) event by event, with timeouts. */
export interface WatchEvent {
  type: string;
  // deno-lint-ignore no-explicit-any
  object: any;
}

export class WatchStream {
  #reader: ReadableStreamDefaultReader<Uint8Array>;
  #decoder = new TextDecoder();
  #buffer = "";
  #queued: WatchEvent[] = [];
  #ended = false;
  #pendingRead: ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]> | undefined;

  constructor(response: Response) {
    if (!response.body) throw new Error(`watch response has no body (status ${response.status})`);
    this.#reader = response.body.getReader();
  }

  /** The next event, or undefined when the stream ended or nothing came within timeoutMs. */
  async next(timeoutMs = 5000): Promise<WatchEvent | undefined> {
    const deadline = Date.now() + timeoutMs;
    while (this.#queued.length === 0 && !this.#ended) {
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      this.#pendingRead ??= this.#reader.read();
      const result = await Promise.race([this.#pendingRead, Bun.sleep(left).then(() => undefined)]);
      if (result === undefined) return undefined;
      this.#pendingRead = undefined;
      if (result.done) this.#ended = true;
      else this.#append(this.#decoder.decode(result.value, { stream: true }));
    }
    return this.#queued.shift();
  }

  /** Events until `last` returns true for one (included), failing after timeoutMs. */
  async until(last: (event: WatchEvent) => boolean, timeoutMs = 10_000): Promise<WatchEvent[]> {
    const deadline = Date.now() + timeoutMs;
    const events: WatchEvent[] = [];
    for (;;) {
      const event = await this.next(Math.max(1, deadline - Date.now()));
      if (!event) throw new Error(`watch ended or timed out after ${events.length} events: ${JSON.stringify(events.map(describe))}`);
      events.push(event);
      if (last(event)) return events;
    }
  }

  /** Events arriving within windowMs (the window is for proving that nothing else comes). */
  async drain(windowMs: number): Promise<WatchEvent[]> {
    const deadline = Date.now() + windowMs;
    const events: WatchEvent[] = [];
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) return events;
      const event = await this.next(left);
      if (!event) return events;
      events.push(event);
    }
  }

  /** Resolves true when the server ends the stream within timeoutMs (events before that are dropped). */
  async ended(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.#ended) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await this.next(left);
    }
    return true;
  }

  async close(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
  }

  #append(text: string): void {
    this.#buffer += text;
    let newline: number;
    while ((newline = this.#buffer.indexOf("\n")) !== -1) {
      const line = this.#buffer.slice(0, newline).trim();
      this.#buffer = this.#buffer.slice(newline + 1);
      if (line !== "") this.#queued.push(JSON.parse(line));
    }
  }
}

export function describe(event: WatchEvent): string {
  return `${event.type} ${event.object?.metadata?.name ?? ""}@${event.object?.metadata?.resourceVersion ?? ""}`;
}
