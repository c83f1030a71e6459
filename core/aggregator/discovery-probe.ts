/** The availability check's request: GET the group/version's discovery document as system:kube-aggregator in system:masters. */
import type { DiscoveryProbe } from "./availability.ts";
import { setAuthProxyHeaders } from "./auth-proxy-headers.ts";
import { type ProxyClientCertificate, sendToBackend } from "./backend-request.ts";

// kube-aggregator's discovery client gives up after 5 s.
const PROBE_TIMEOUT_MS = 5000;

export function discoveryProbe(client: ProxyClientCertificate, timeoutMs = PROBE_TIMEOUT_MS): DiscoveryProbe {
  return async (endpoint, path, spec) => {
    const headers = new Headers({ Accept: "application/json" });
    setAuthProxyHeaders(headers, { username: "system:kube-aggregator", groups: ["system:masters"] });
    const response = await sendToBackend(endpoint, spec, client, { method: "GET", path, headers, signal: AbortSignal.timeout(timeoutMs) });
    response.resume();
    const status = response.statusCode ?? 0;
    // 2xx and 3xx count as alive, as in kube.
    if (status < 200 || status >= 400) throw new Error(`bad status from https://${endpoint.host}:${endpoint.port}${path}: ${status}`);
  };
}
