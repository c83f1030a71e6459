/**
 * `/` and `/index.html` (genericapiserver routes.Index → IndexLister.ServeHTTP, written with WriteRawJSON): the sorted
 * paths the server lists, as APIServerHandler.ListedPaths gathers them from its go-restful web services and the
 * listed (not UnlistedHandle'd) paths of its mux. Each request lists what is served now: groups come and go with
 * CRDs and APIServices, which kube-aggregator lists as it adds their proxy paths (`/apis/<group>/<version>`).
 */
import type { APIGroupList } from "../registry/discovery.ts";

export interface IndexSources {
  /** The served groups, local and aggregated (kube-aggregator's /apis). */
  groups: () => APIGroupList;
  /** `/healthz`, `/livez`, `/readyz` and each of their checks (healthz.InstallPathHandler lists both). */
  healthPaths: () => string[];
  /** OpenIDMetadataServer's two documents are served (service account issuer discovery). */
  issuerDiscovery: readonly string[];
  /** The OpenAPIV3 gate: /openapi/v3 and the /openapi/v3/ prefix. */
  openApiV3: boolean;
}

/** The legacy group (always installed), `/apis` with the aggregator's `/apis/`, metrics, OpenAPI v2, version. */
const FIXED_PATHS = ["/api", "/api/v1", "/apis", "/apis/", "/metrics", "/openapi/v2", "/version"];

/** metav1.RootPaths: the listed paths, sorted as Go's sort.Strings does (byte order, which ASCII paths share). */
export function listedPaths(sources: IndexSources): { paths: string[] } {
  const groupPaths = sources.groups().groups.flatMap((group) => [
    `/apis/${group.name}`,
    ...group.versions.map((version) => `/apis/${version.groupVersion}`),
  ]);
  const paths = new Set([
    ...FIXED_PATHS,
    ...groupPaths,
    ...sources.healthPaths(),
    ...sources.issuerDiscovery,
    ...(sources.openApiV3 ? ["/openapi/v3", "/openapi/v3/"] : []),
  ]);
  return { paths: [...paths].sort() };
}
