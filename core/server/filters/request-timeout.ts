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
 * The answer served, or kube's 504 if it has not come within deadlineMs. Every request that waits pays for this, so
 * it settles one promise through two reactions and a timer rather than an async function racing two promises.
 */
export function withinDeadline(deadlineMs: number, served: Promise<Response>): Promise<Response> {
  const answer = Promise.withResolvers<Response>();
  const timer = setTimeout(answerTimedOut, deadlineMs, answer.resolve);
  // A failure after the 504 went out is post-timeout activity nobody waits for: settling again does nothing.
  served.then(
    (response) => {
      clearTimeout(timer);
      answer.resolve(response);
    },
    (error: unknown) => {
      clearTimeout(timer);
      answer.reject(error);
    },
  );
  return answer.promise;
}

function answerTimedOut(resolve: (response: Response) => void): void {
  resolve(timeoutResponse());
}
