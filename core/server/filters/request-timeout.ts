/**
 * The request deadline (k8s.io/apiserver WithRequestDeadline and WithTimeoutForNonLongRunningRequests): a
 * request that is not long-running gets --request-timeout, or the shorter `timeout` query parameter, and an
 * answer still missing then is replaced by kube's 504. The handler keeps running, as kube's does after its
 * timeout; only its answer is dropped.
 */
import { newBadRequest } from "../../api/errors.ts";
import { parseGoDuration } from "../../api/go-duration.ts";
import { isLongRunningRequest, type RequestInfo } from "../request-info.ts";

/** WithRequestDeadline's invalidTimeoutInURL. */
const INVALID_TIMEOUT = "invalid timeout specified in the request URL";

/**
 * WithRequestDeadline: the milliseconds a request may take; undefined for long-running ones. A `timeout`
 * parameter only shortens the server's maximum; 0 or a longer one keeps it. A malformed one is a 400.
 */
export function requestDeadlineMs(info: RequestInfo, query: URLSearchParams, maximumMs: number): number | undefined {
  if (isLongRunningRequest(info)) return undefined;
  const value = query.get("timeout") ?? "";
  if (value === "") return maximumMs;
  let requestedMs: number;
  try {
    requestedMs = parseGoDuration(value);
  } catch (error) {
    throw newBadRequest(`${INVALID_TIMEOUT} - ${(error as Error).message}`);
  }
  return requestedMs > 0 && requestedMs < maximumMs ? requestedMs : maximumMs;
}

/**
 * The answer baseTimeoutWriter.timeout writes: NewTimeoutError("request did not complete within the allotted
 * timeout", 0)'s ErrStatus through a plain json.Encoder, so without kind and apiVersion, and with the type
 * Go's content sniffing gives it.
 */
export function timeoutResponse(): Response {
  const status = {
    metadata: {},
    status: "Failure",
    message: "Timeout: request did not complete within the allotted timeout",
    reason: "Timeout",
    details: {},
    code: 504,
  };
  return new Response(`${JSON.stringify(status)}\n`, { status: 504, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/**
 * Requests of one deadline that arrived within one millisecond, waiting on one timer: a timer per request (set, then
 * cleared when its answer comes) cost a create ~1 µs (bench/profiles/create-path.md, thirteenth session). The timer
 * fires at the end of that millisecond plus the deadline, so no request is answered 504 before its own deadline, and
 * at most a millisecond after it (timers have millisecond resolution).
 */
class DeadlineGroup {
  /** The waiting requests' 504s, each cleared when its answer came first. */
  readonly #timeouts: (((response: Response) => void) | undefined)[] = [];
  #waiting = 0;
  readonly #timer: ReturnType<typeof setTimeout>;

  constructor(readonly deadlineMs: number, readonly startMs: number, nowMs: number) {
    this.#timer = setTimeout(() => this.#expire(), deadlineMs + startMs + 1 - nowMs);
  }

  /** Joins the group with the request's 504; `answered` takes the returned slot when its answer comes first. */
  join(timeout: (response: Response) => void): number {
    this.#waiting++;
    return this.#timeouts.push(timeout) - 1;
  }

  answered(slot: number): void {
    this.#timeouts[slot] = undefined;
    if (--this.#waiting > 0) return;
    clearTimeout(this.#timer);
    if (openGroup === this) openGroup = undefined;
  }

  #expire(): void {
    if (openGroup === this) openGroup = undefined;
    for (const timeout of this.#timeouts) timeout?.(timeoutResponse());
  }
}

/** The group a request arriving now joins, while its millisecond lasts and it waits. */
let openGroup: DeadlineGroup | undefined;

function groupFor(deadlineMs: number): DeadlineGroup {
  const nowMs = performance.now();
  const startMs = Math.floor(nowMs);
  const open = openGroup;
  if (open !== undefined && open.startMs === startMs && open.deadlineMs === deadlineMs) return open;
  return openGroup = new DeadlineGroup(deadlineMs, startMs, nowMs);
}

/**
 * The answer served, or kube's 504 if it has not come within deadlineMs. Every request that waits pays for this, so
 * it settles one promise through two reactions rather than an async function racing two promises, and shares its
 * timer with the requests of its millisecond (DeadlineGroup).
 */
export function withinDeadline(deadlineMs: number, served: Promise<Response>): Promise<Response> {
  const group = groupFor(deadlineMs);
  const answer = Promise.withResolvers<Response>();
  const slot = group.join(answer.resolve);
  // A failure after the 504 went out is post-timeout activity nobody waits for: settling again does nothing.
  served.then(
    (response) => {
      group.answered(slot);
      answer.resolve(response);
    },
    (error: unknown) => {
      group.answered(slot);
      answer.reject(error);
    },
  );
  return answer.promise;
}
