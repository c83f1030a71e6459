import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { readSwagger, SWAGGER_PATH } from "../../scripts/gen-catalog.ts";
import { builtInCatalog } from "../registry/catalog.ts";
import { connectSubresource, LOG_PARAMETERS } from "./openapi-facts.ts";

type PathItem = Record<string, { "x-kubernetes-action"?: string } | undefined> & {
  parameters?: { name: string; in: string; type?: string }[];
};

const METHODS = ["get", "put", "post", "patch", "delete", "head", "options"];

/** The query parameters of a path as "name:type", sorted. */
const queryParameters = (item: PathItem) => (item.parameters ?? []).filter((p) => p.in === "query").map(named).sort();
const named = (p: { name: string; type?: string }) => `${p.name}:${p.type}`;

test("the hand-written connect and log facts say what kube 1.26's OpenAPI data says, for every subresource it documents", () => {
  if (!existsSync(SWAGGER_PATH)) {
    console.log("connect facts check skipped: ../shared/k8s-api-1.26 is absent");
    return;
  }
  const paths = readSwagger().paths as Record<string, PathItem>;
  const found: string[] = [];
  for (const type of builtInCatalog().all()) {
    const root = type.group === "" ? `/api/${type.version}` : `/apis/${type.group}/${type.version}`;
    for (const subresource of type.subresources) {
      const path = `${root}${type.namespaced ? "/namespaces/{namespace}" : ""}/${type.resource}/{name}/${subresource.name}`;
      const item = paths[path];
      const methods = METHODS.filter((method) => item?.[method]?.["x-kubernetes-action"] === "connect");
      const facts = connectSubresource(type, subresource.name);
      const id = `${type.group}/${type.resource}/${subresource.name}`;
      if (methods.length === 0) {
        expect({ id, facts }).toEqual({ id, facts: undefined });
        continue;
      }
      found.push(id);
      expect({ id, methods: [...facts!.methods].sort() as string[], parameters: facts!.parameters.map(named).sort() }).toEqual({
        id,
        methods: methods.sort(),
        parameters: queryParameters(item!),
      });
      expect({ id, withPath: facts!.withPath }).toEqual({ id, withPath: paths[`${path}/{path}`] !== undefined });
    }
  }
  expect(found.sort()).toEqual(["/nodes/proxy", "/pods/attach", "/pods/exec", "/pods/portforward", "/pods/proxy", "/services/proxy"]);
  const log = paths["/api/v1/namespaces/{namespace}/pods/{name}/log"]!;
  expect(LOG_PARAMETERS.map(named).sort()).toEqual(queryParameters(log).filter((parameter) => !parameter.startsWith("pretty:")));
});
