import { expect, test } from "bun:test";
import { restfulRoutePath } from "./restful-trailing-slashes.ts";

const servesApps = (group: string) => group === "apps";

test("tokenizePath (go-restful v3.9.0) trims a run of trailing slashes on /version, /api and /apis/<group>[/<version>]", () => {
  const table: [string, string][] = [
    ["/version//", "/version/"],
    ["/api///", "/api/"],
    ["/api/v1//", "/api/v1/"],
    ["/apis/apps//", "/apis/apps/"],
    ["/apis/apps/v1////", "/apis/apps/v1/"],
    ["/apis/metrics.k8s.io/v1beta1//", "/apis/metrics.k8s.io/v1beta1/"],
  ];
  for (const [path, routed] of table) expect({ path, routed: restfulRoutePath(path, servesApps) }).toEqual({ path, routed });
});

test("paths that are no go-restful route, or ask one exact handler, are routed as sent", () => {
  const asSent = [
    "/version",
    "/version/",
    "/apis//",
    "/apis/metrics.k8s.io//",
    "/healthz//",
    "/openapi/v2//",
    "/api//v1//",
    "/api/v1/namespaces//",
    "//version//",
  ];
  for (const path of asSent) expect({ path, routed: restfulRoutePath(path, servesApps) }).toEqual({ path, routed: undefined });
});
