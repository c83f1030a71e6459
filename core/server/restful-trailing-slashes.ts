/**
 * Paths kube serves through go-restful answer under any run of trailing slashes: go-restful v3.9.0's (kube 1.26's)
 * tokenizePath trims every slash at the path's end (`strings.Trim(path, "/")`), so /version//, /api//, /api/v1//,
 * /apis/apps// and /apis/apps/v1// reach the /version, /api, /api/v1, /apis/apps and /apis/apps/v1 routes. kubun's
 * routes take one trailing slash; a longer run is routed as that one. The exact handlers in front stay exact:
 * APIServerHandler's director hands /apis to go-restful only as "/apis" or "/apis/" (and kube-aggregator's
 * apisHandler is registered at those two), so /apis// is not found; a group served by APIServices alone has its
 * discovery only at kube-aggregator's /apis/<group> and /apis/<group>/ (PathRecorderMux's exact entries).
 * PathRecorderMux's own paths (/healthz, /livez, /readyz, /metrics, /openapi/v2) are exact and take no slash.
 */
const SLASH = 47;
const RESTFUL_ROUTE_WITH_SLASHES = /^(\/version|\/api(?:\/[^/]+)?|\/apis\/([^/]+)(\/[^/]+)?)\/{2,}$/;

/**
 * The path as routed (one trailing slash) when `path` ends in a run of slashes after a go-restful route's path;
 * undefined otherwise. `servesGroup` tells whether a group's discovery is served here (built-in or CRD types).
 */
export function restfulRoutePath(path: string, servesGroup: (group: string) => boolean): string | undefined {
  if (path.charCodeAt(path.length - 1) !== SLASH || path.charCodeAt(path.length - 2) !== SLASH) return undefined;
  const match = RESTFUL_ROUTE_WITH_SLASHES.exec(path);
  if (!match) return undefined;
  const [, route, group, version] = match;
  if (group !== undefined && version === undefined && !servesGroup(group)) return undefined;
  return `${route}/`;
}
