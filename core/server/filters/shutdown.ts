/**
 * Graceful shutdown's request side: kube's WithRetryAfter (with --shutdown-send-retry-after, requests arriving
 * once the shutdown delay is over get a 429 telling the client to come back on a new connection) and
 * WithWaitGroup (the server waits for the requests in flight). Health probes, /metrics and kube-apiserver's own
 * loopback client are exempt, as isRequestExemptFromRetryAfter says; long-running requests are not waited for.
 */
import { isLongRunningRequest, type RequestInfo } from "../request-info.ts";

/** pathPrefixesExemptFromRetryAfter. */
const EXEMPT_PATH_PREFIXES = ["/readyz", "/livez", "/healthz", "/metrics"];
const RETRY_AFTER_MESSAGE = "The apiserver is shutting down, please try again later.";

// A loop rather than some() with a closure: this runs on every request.
function isExemptFromRetryAfter(request: Request, path: string): boolean {
  for (const prefix of EXEMPT_PATH_PREFIXES) if (path.startsWith(prefix)) return true;
  return (request.headers.get("user-agent") ?? "").startsWith("kube-apiserver/");
}

/** withRetryAfter's answer: http.Error's text body with Retry-After: 5 and Connection: close. */
function retryAfterResponse(): Response {
  return new Response(`${RETRY_AFTER_MESSAGE}\n`, {
    status: 429,
    headers: {
      "Connection": "close",
      "Retry-After": "5",
      "Content-Type": "text/plain; charset=utf-8",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

export class InFlightRequests {
  #count = 0;
  #refusing = false;
  #idle: (() => void)[] = [];

  /**
   * Admits a request: kube's 429 once refuseNew() was called, else whether it is counted in flight; a counted
   * request is ended with leave() once answered. No callback, so the chain stays synchronous where it can.
   */
  enter(request: Request, path: string, info: RequestInfo): Response | boolean {
    if (isExemptFromRetryAfter(request, path)) return false;
    if (this.#refusing) return retryAfterResponse();
    if (isLongRunningRequest(info)) return false;
    this.#count++;
    return true;
  }

  leave(): void {
    if (--this.#count === 0) this.#idle.splice(0).forEach((wake) => wake());
  }

  /** From now on new requests get the 429 (NotAcceptingNewRequest with --shutdown-send-retry-after). */
  refuseNew(): void {
    this.#refusing = true;
  }

  /** Resolves once no counted request is in flight (InFlightRequestsDrained). */
  drained(): Promise<void> {
    return this.#count === 0 ? Promise.resolve() : new Promise((resolve) => this.#idle.push(resolve));
  }
}
