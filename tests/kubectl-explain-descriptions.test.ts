/** --openapi-descriptions: kube's prose, supplied by the operator, in /openapi/v2 and /openapi/v3 for kubectl explain. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";

const OWN_DOCUMENT = {
  swagger: "2.0",
  definitions: {
    "io.k8s.api.core.v1.ConfigMap": {
      description: "Settings a pod reads.",
      properties: { data: { description: "Text values by key.", type: "object" } },
    },
  },
};
const KUBE_SWAGGER = resolve(import.meta.dir, "../../shared/k8s-api-1.26/openapi-v2/swagger.json");
const KUBE_CORE_V3 = resolve(import.meta.dir, "../../shared/k8s-api-1.26/openapi-v3/api__v1_openapi.json");

let dir: string;
let server: TestServer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "kubun-descriptions-"));
  await writeFile(join(dir, "descriptions.json"), JSON.stringify(OWN_DOCUMENT));
  server = await startServer([`--openapi-descriptions=${join(dir, "descriptions.json")}`]);
});
afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

test("kubectl explain prints the supplied descriptions from /openapi/v3", async () => {
  const explained = await kubectlOk(server, ["explain", "configmap"]);
  expect(explained).toMatch(/DESCRIPTION:\n\s+Settings a pod reads\./);
  expect(explained).toMatch(/data\t<map\[string\]string>\n\s+Text values by key\./);
  expect(explained).toMatch(/binaryData\t<map\[string\]string>\n\s+<no description>/);
});

test("kubectl explain --output=plaintext-openapiv2 prints them from /openapi/v2", async () => {
  const explained = await kubectlOk(server, ["explain", "configmap.data", "--output=plaintext-openapiv2"]);
  expect(explained).toMatch(/DESCRIPTION:\n\s+Text values by key\./);
});

// The upstream documents are the API data beside the project (../shared), absent from a bare clone.
test.skipIf(!existsSync(KUBE_SWAGGER) || !existsSync(KUBE_CORE_V3))(
  "kube's own swagger.json and per-group v3 documents supply kube's text",
  async () => {
    const kube = await startServer([`--openapi-descriptions=${KUBE_SWAGGER}`, `--openapi-descriptions=${KUBE_CORE_V3}`]);
    try {
      expect(await kubectlOk(kube, ["explain", "pods.spec.containers"])).toContain("List of containers belonging to the pod.");
      expect(await kubectlOk(kube, ["explain", "configmap"])).toContain("ConfigMap holds configuration data for pods to consume.");
    } finally {
      await kube.stop();
    }
  },
);

test("a file that is not an OpenAPI document stops the server with a message naming it", async () => {
  await writeFile(join(dir, "bad.json"), "{}");
  await expect(startServer([`--openapi-descriptions=${join(dir, "bad.json")}`])).rejects.toThrow("has neither definitions");
});
