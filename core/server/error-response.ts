/** The answer to a failed request, shared by the filter chain and the routes (kube's responsewriters.ErrorNegotiated). */
import { isStatusError, newInternalError, newUnknownError } from "../api/errors.ts";
import { isPrettyPrint, queryOf } from "../api/query-params.ts";
import { logger } from "../log/mod.ts";
import { RequestBodyError } from "../runtime/fetch-adapter.ts";
import { respondError } from "./respond.ts";

const log = logger("apiserver");

/** kube's isPrettyPrint; a request that failed before its URL was parsed has it parsed here. */
export function prettyFor(request: Request, url = new URL(request.url)): boolean {
  return isPrettyPrint(queryOf(url), request.headers.get("user-agent"));
}

/**
 * Whether a failure is kube's panic (an exception that is no API error), which the audit records as the Panic stage.
 * A body that could not be read is none: kube's handlers get it as limitedReadBody's error.
 */
export function isPanic(error: unknown): boolean {
  return !isStatusError(error) && !(error instanceof RequestBodyError);
}

export function errorResponse(error: unknown, request: Request): Response {
  const accept = request.headers.get("accept");
  const pretty = prettyFor(request);
  if (isStatusError(error)) return respondError(error, accept, pretty);
  // limitedReadBody's error through scope.err: ErrorToAPIStatus's answer for an error that is no Status.
  if (error instanceof RequestBodyError) return respondError(newUnknownError(error.message), accept, pretty);
  // A client that went away is no server failure worth a log line.
  if (!request.signal.aborted) log.error("request failed", error, { stack: error instanceof Error ? error.stack : undefined });
  return respondError(newInternalError(error instanceof Error ? error.message : "unexpected failure"), accept, pretty);
}
