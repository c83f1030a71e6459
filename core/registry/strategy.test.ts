import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { readSwagger, SWAGGER_PATH } from "../../scripts/gen-catalog.ts";
import { builtInCatalog } from "./catalog.ts";
import { strategyFor } from "./strategy.ts";

const STATUS_REF = "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Status";

type DeleteOperation = { "x-kubernetes-action"?: string; responses: Record<string, { schema?: { $ref?: string } }> };

test("every built-in kind answers DELETE with the object or a Status as kube 1.26's OpenAPI documents it (namespaces: the object)", () => {
  if (!existsSync(SWAGGER_PATH)) {
    console.log("DELETE answer check skipped: ../shared/k8s-api-1.26 is absent");
    return;
  }
  const paths = readSwagger().paths as Record<string, { delete?: DeleteOperation }>;
  let checked = 0;
  for (const type of builtInCatalog().all()) {
    if (!type.verbs.includes("delete")) continue;
    const root = type.group === "" ? `/api/${type.version}` : `/apis/${type.group}/${type.version}`;
    const operation = paths[`${root}${type.namespaced ? "/namespaces/{namespace}" : ""}/${type.resource}/{name}`]?.delete;
    if (!operation) continue; // Kinds 1.26 no longer documents (PodSecurityPolicy).
    const documented = operation.responses["200"].schema?.$ref !== STATUS_REF;
    const expected = type.resource === "namespaces" && type.group === "" ? true : documented;
    const id = `${type.group}/${type.version}/${type.resource}`;
    expect({ id, returnsObject: strategyFor(type).returnsDeletedObject }).toEqual({ id, returnsObject: expected });
    checked++;
  }
  expect(checked).toBeGreaterThan(40);
});
