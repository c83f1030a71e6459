/**
 * The request deadline (k8s.io/apiserver WithRequestDeadline and WithTimeoutForNonLongRunningRequests): a
 * request that is not long-running gets --request-timeout, or the shorter `timeout` query parameter, and an
 * answer still missing then is replaced by kube's 504. The handler keeps running, as kube's does after its
 * timeout; only its answer is dropped.
 */
import { newBadRequest } from "../../api/errors.ts";
import { parseGoDuration } from "../../api/go-duration.ts";
import { setTimeout } from "node:timers";
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
 * A request that waits for its answer until its deadline: linked into the list of its deadline's duration while it
 * waits, so that waiting costs no timer of its own.
 */
export interface DeadlineWaiter {
  /** performance.now() once its deadline passes. */
  deadlineAt: number;
  previousWaiter: DeadlineWaiter | undefined;
  nextWaiter: DeadlineWaiter | undefined;
  waitingIn: DeadlineList | undefined;
  /** Called once its deadline passed while it still waited. */
  deadlinePassed(): void;
}

/** The waiters of one duration, oldest first, and the one timer that wakes for the oldest. */
interface DeadlineList {
  durationMs: number;
  first: DeadlineWaiter | undefined;
  last: DeadlineWaiter | undefined;
}

/**
 * The deadlines of the requests that wait (kube's timeoutHandler.ServeHTTP races the handler with a timer per request).
 * Every request of one duration waits in one list in the order they started, so the list's first waiter is the first
 * whose deadline passes and one timer serves the whole list, as Node's timers keep one list per duration
 * (lib/internal/timers.js): a request joins and leaves by a few links where a timer per request set and cleared a
 * native timer each time. The timer wakes for the first waiter's deadline, answers every waiter whose deadline passed,
 * and sleeps again until the new first one's; a list left empty is dropped then, so the durations clients ask for
 * (`timeout`) hold no list longer than their deadline. The timer does not hold the process open.
 */
export class RequestDeadlines {
  readonly #lists = new Map<number, DeadlineList>();

  /** `waiter` waits until `startedAt + durationMs` (performance.now() times) unless it leaves before. */
  wait(waiter: DeadlineWaiter, durationMs: number, startedAt: number): void {
    let list = this.#lists.get(durationMs);
    if (list === undefined) {
      list = { durationMs, first: undefined, last: undefined };
      this.#lists.set(durationMs, list);
      this.#sleep(list, durationMs);
    }
    waiter.deadlineAt = startedAt + durationMs;
    waiter.waitingIn = list;
    waiter.previousWaiter = list.last;
    waiter.nextWaiter = undefined;
    if (list.last === undefined) list.first = waiter;
    else list.last.nextWaiter = waiter;
    list.last = waiter;
  }

  /** `waiter` was answered: it no longer waits (nothing when it did not). */
  leave(waiter: DeadlineWaiter): void {
    const list = waiter.waitingIn;
    if (list === undefined) return;
    const { previousWaiter, nextWaiter } = waiter;
    if (previousWaiter === undefined) list.first = nextWaiter;
    else previousWaiter.nextWaiter = nextWaiter;
    if (nextWaiter === undefined) list.last = previousWaiter;
    else nextWaiter.previousWaiter = previousWaiter;
    waiter.waitingIn = waiter.previousWaiter = waiter.nextWaiter = undefined;
  }

  #sleep(list: DeadlineList, delayMs: number): void {
    setTimeout(this.#wake, delayMs, list).unref();
  }

  /** A timer may fire a fraction of a millisecond early: it sleeps again rather than answer before a deadline. */
  readonly #wake = (list: DeadlineList): void => {
    const now = performance.now();
    for (let first = list.first; first !== undefined && first.deadlineAt <= now; first = list.first) {
      this.leave(first);
      first.deadlinePassed();
    }
    if (list.first !== undefined) this.#sleep(list, Math.ceil(list.first.deadlineAt - now));
    else this.#lists.delete(list.durationMs);
  };
}
