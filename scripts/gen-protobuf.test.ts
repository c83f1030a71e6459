import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { API_DATA_DIR, DESCRIPTORS_MODULE_PATH, renderProtobufModule } from "./gen-protobuf.ts";
import { definitionOfMessage, messageNameOfDefinition } from "./protobuf-kinds.ts";

test("the committed descriptors module is what the generator produces from ../shared now", () => {
  if (!existsSync(API_DATA_DIR)) {
    console.log(`gen-protobuf: ${API_DATA_DIR} is absent, nothing to compare`);
    return;
  }
  expect(readFileSync(DESCRIPTORS_MODULE_PATH, "utf8")).toBe(renderProtobufModule(API_DATA_DIR));
});

test("OpenAPI definition names map to proto packages with dashes turned into underscores", () => {
  expect(messageNameOfDefinition("io.k8s.api.core.v1.Pod")).toBe("k8s.io.api.core.v1.Pod");
  expect(messageNameOfDefinition("io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON"))
    .toBe("k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSON");
  expect(messageNameOfDefinition("io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService"))
    .toBe("k8s.io.kube_aggregator.pkg.apis.apiregistration.v1.APIService");
  expect(messageNameOfDefinition("io.example.Widget")).toBeNull();
  expect(definitionOfMessage("k8s.io.kube_aggregator.pkg.apis.apiregistration.v1.APIService"))
    .toBe("io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService");
});
