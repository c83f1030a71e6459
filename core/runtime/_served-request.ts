/**
 * The Requests the fetch adapter hands its handler: their AbortSignal made when first read, and for a body that came
 * whole with its head, the body's bytes read from those bytes (requestBytes) without a stream.
 */
import { closedEarly, type NodeResponse } from "./_node-response.ts";
import type { ServedRequest as Http1ServedRequest } from "./_http1-exchange.ts";

/**
 * Deno's Request copies take the original's signal from an internal slot, not through the getter below, so there
 * the signal is made with the Request, as a copy made to hold a read body must abort with its original.
 */
export const SIGNAL_MADE_WHEN_READ = !("Deno" in globalThis);

/**
 * A served Request whose AbortSignal is made when first read: an AbortController, and the signal a Request makes to
 * follow it, cost more than the rest of the Request, and few handlers read it (a proxy, an error's log line). A copy
 * (`new Request(served, init)`) reads the signal through this getter, so it aborts with the original.
 */
export class ServedRequest extends Request implements Http1ServedRequest {
  #aborter: AbortController | undefined;
  #clientGone = false;
  /** The body when it came whole with its head (Http1Request.completeBody), the Request's body too (WholeBodyRequest). */
  readonly completeBody: Uint8Array | undefined;

  constructor(url: string, init: RequestInit | Request | undefined, aborter?: AbortController, completeBody?: Uint8Array) {
    super(url, init);
    this.#aborter = aborter;
    this.completeBody = completeBody;
  }

  override get signal(): AbortSignal {
    if (this.#aborter === undefined) {
      this.#aborter = new AbortController();
      if (this.#clientGone) this.#aborter.abort(clientClosed());
    }
    return this.#aborter.signal;
  }

  /** The client went away before its answer was written out. */
  clientWentAway(): void {
    this.#clientGone = true;
    this.#aborter?.abort(clientClosed());
  }

  answerClosed(outgoing: NodeResponse): void {
    if (closedEarly(outgoing)) this.clientWentAway();
  }
}

/**
 * A bodiless Request of each method that usually carries a body, the init of a WholeBodyRequest: Bun copies a
 * Request given as init in native code, where it reads an init object's members one by one through JavaScript (a
 * create's Request with its four fields 0.96-1.00 µs → 0.53-0.56 µs in a loop, bench/profiles/create-path.md,
 * fourteenth session). A fixed set: a client's method names must not grow it.
 */
const wholeBodyTemplates = new Map(
  ["POST", "PUT", "PATCH", "DELETE"].map((method) => [method, new Request("https://localhost/", { method })]),
);

/** The template a served Request of `method` whose body came whole is made from, when there is one. */
export function wholeBodyTemplate(method: string): Request | undefined {
  return SIGNAL_MADE_WHEN_READ ? wholeBodyTemplates.get(method) : undefined;
}

/**
 * A served Request whose body came whole with its head (Http1Request.completeBody), made from its method's template
 * without a body of its own: the body's members read those bytes, through a Response made at the first read, so they
 * keep the Fetch Body's rules (one read, `bodyUsed`, the stream once). A copy (`new Request(request, init)`) has no
 * body unless its init gives one: kubun copies a served Request only to serve a HEAD as its GET and to route a path
 * that is no resource's, neither of which reads a body.
 */
class WholeBodyRequest extends ServedRequest {
  #reader: Response | undefined;

  constructor(url: string, template: Request, completeBody: Uint8Array) {
    super(url, template, undefined, completeBody);
  }

  #read(): Response {
    if (this.#reader === undefined) {
      const type = this.headers.get("content-type");
      this.#reader = new Response(
        this.completeBody as Uint8Array<ArrayBuffer>,
        type === null ? undefined : { headers: { "content-type": type } },
      );
    }
    return this.#reader;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return this.#read().body;
  }

  override get bodyUsed(): boolean {
    return this.#reader?.bodyUsed ?? false;
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#read().arrayBuffer();
  }

  override blob(): Promise<Blob> {
    return this.#read().blob();
  }

  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#read().bytes();
  }

  override formData(): Promise<FormData> {
    return this.#read().formData();
  }

  override json(): Promise<unknown> {
    return this.#read().json();
  }

  override text(): Promise<string> {
    return this.#read().text();
  }

  override clone(): Request {
    if (this.bodyUsed) throw new TypeError("Body already used");
    return new Request(this, { body: this.completeBody!.slice() });
  }
}

/**
 * The body of a served request that came whole with its head, while nobody has read the Request's own: the bytes
 * without the promise and the copy of `arrayBuffer()` (~1 µs of a create, bench/profiles/create-path.md). Undefined
 * for a streamed body, which is read through the Request.
 */
export function completeRequestBody(request: Request): Uint8Array | undefined {
  return request instanceof ServedRequest && !request.bodyUsed ? request.completeBody : undefined;
}

/** A request's whole body: at once when it came with its head (completeRequestBody), else read from the Request. */
export function requestBytes(request: Request): Uint8Array | Promise<Uint8Array> {
  return completeRequestBody(request) ?? request.arrayBuffer().then(asBytes);
}

function asBytes(buffer: ArrayBuffer): Uint8Array {
  return new Uint8Array(buffer);
}

function clientClosed(): Error {
  return new Error("the client closed the connection");
}

/**
 * A served Request; `init` is a method's template (wholeBodyTemplate) for a body that came whole with its head.
 */
export function madeRequest(
  url: string,
  init: RequestInit | Request | undefined,
  aborter: AbortController | undefined,
  complete: Uint8Array | undefined,
): ServedRequest {
  return init instanceof Request ? new WholeBodyRequest(url, init, complete!) : new ServedRequest(url, init, aborter, complete);
}
