/** The answer to a failed request, shared by the filter chain and the routes (kube's responsewriters.ErrorNegotiated). */
import { isStatusError, newInternalError } from "../api/errors.ts";
import { isPrettyPrint } from "../api/query-params.ts";
import { logger } from "../log/mod.ts";
import { RequestBodyError } from "../runtime/fetch-adapter.ts";
import { respondError } from "./respond.ts";

const log = logger("apiserver");

/** kube's isPrettyPrint; a request that failed before its URL was parsed has it parsed here. */
export function prettyFor(request: Request, url = new URL(request.url)): boolean {
  return isPrettyPrint(url.searchParams, request.headers.get("user-agent"));
}

export function errorResponse(error: unknown, request: Request): Response {
  const accept = request.headers.get("accept");
  const pretty = prettyFor(request);
  if (isStatusError(error)) return respondError(error, accept, pretty);
  // A client that went away, sent a malformed body, or whose stalled body was cut is no server failure worth a log line.
  if (!request.signal.aborted && !(error instanceof RequestBodyError)) {
    log.error("request failed", error, { stack: error instanceof Error ? error.stack : undefined });
  }
  return respondError(newInternalError(error instanceof Error ? error.message : "unexpected failure"), accept, pretty);
}
