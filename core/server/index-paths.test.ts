import { expect, test } from "bun:test";
import { listedPaths } from "./index-paths.ts";

const group = (name: string, versions: string[]) => ({
  name,
  versions: versions.map((version) => ({ groupVersion: `${name}/${version}`, version })),
  preferredVersion: { groupVersion: `${name}/${versions[0]}`, version: versions[0]! },
});

test("listedPaths() sorts groups, health checks and fixed paths as ListedPaths does, each once", () => {
  const { paths } = listedPaths({
    groups: () => ({ kind: "APIGroupList", apiVersion: "v1", groups: [group("batch", ["v1"]), group("apps", ["v1"])] }),
    healthPaths: () => ["/healthz", "/healthz/ping", "/readyz", "/readyz/shutdown", "/livez"],
    issuerDiscovery: ["/.well-known/openid-configuration", "/openid/v1/jwks"],
    openApiV3: true,
  });
  expect(paths).toEqual([
    "/.well-known/openid-configuration",
    "/api",
    "/api/v1",
    "/apis",
    "/apis/",
    "/apis/apps",
    "/apis/apps/v1",
    "/apis/batch",
    "/apis/batch/v1",
    "/healthz",
    "/healthz/ping",
    "/livez",
    "/metrics",
    "/openapi/v2",
    "/openapi/v3",
    "/openapi/v3/",
    "/openid/v1/jwks",
    "/readyz",
    "/readyz/shutdown",
    "/version",
  ]);
});

test("listedPaths() leaves out /openapi/v3 without the OpenAPIV3 gate", () => {
  const { paths } = listedPaths({
    groups: () => ({ kind: "APIGroupList", apiVersion: "v1", groups: [] }),
    healthPaths: () => [],
    issuerDiscovery: [],
    openApiV3: false,
  });
  expect(paths.filter((path) => path.startsWith("/openapi"))).toEqual(["/openapi/v2"]);
});
