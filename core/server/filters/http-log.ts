/**
 * kube's WithLogging (k8s.io/apiserver pkg/server/httplog): at `-v=3` and above, one "HTTP" line per request
 * with the metrics' canonical verb, the request URI, the latency as a Go duration, the user agent, the audit ID,
 * the client's address and the response code.
 */
import { logger } from "../../log/mod.ts";
import { formatGoDuration } from "../flag-types.ts";

/** klog.V(3), made once: checked on every request. */
const v3 = logger("httplog").v(3);

/** klog.V(3).Enabled(): whether requests are logged at all (checked before any work per request). */
export function httpLoggingEnabled(): boolean {
  return v3.enabled;
}

export interface LoggedRequest {
  verb: string;
  uri: string;
  latencyMs: number;
  userAgent: string;
  auditID: string;
  srcIP: string;
  status: number;
}

export function logHttpRequest(request: LoggedRequest): void {
  v3.info("HTTP", {
    verb: request.verb,
    URI: request.uri,
    latency: formatGoDuration(request.latencyMs),
    userAgent: request.userAgent,
    "audit-ID": request.auditID,
    srcIP: request.srcIP,
    resp: request.status,
  });
}
