/**
 * What kubectl 1.32 shows from the server's Table answers, against kube's printers: the scale subresource's own
 * columns (printScale), rows sorted by a list printer (printFlowSchemaList), CSIStorageCapacity's columns, the
 * Completed condition of finished pods' rows (printPod), and custom resource cells (apiextensions' tableconvertor).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createNamespace, getJson, sendJson } from "./_api.ts";
import { kubectlOk } from "./_kubectl.ts";
import { startServer, type TestServer } from "./harness.ts";

const NS = "printers";
const TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io";
let server: TestServer;

function lines(output: string): string[][] {
  return output.trim().split("\n").map((line) => line.trim().split(/\s{2,}/));
}

async function table(path: string) {
  const response = await server.request("GET", path, { headers: { Accept: TABLE } });
  expect(response.status).toBe(200);
  return await response.json();
}

const WIDGETS_CRD = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "widgets.example.com" },
  spec: {
    group: "example.com",
    scope: "Namespaced",
    names: { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList" },
    versions: [{
      name: "v1",
      served: true,
      storage: true,
      schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } },
      additionalPrinterColumns: [
        { name: "Tags", type: "string", jsonPath: ".spec.tags[*]" },
        { name: "Size", type: "integer", jsonPath: ".spec.size" },
        { name: "Ratio", type: "integer", jsonPath: ".spec.ratio" },
        { name: "Since", type: "date", jsonPath: ".spec.since" },
      ],
    }],
  },
};

beforeAll(async () => {
  server = await startServer(["--controllers=*,-deployment"]);
  await createNamespace(server, NS);
  await kubectlOk(server, ["-n", NS, "create", "deployment", "web", "--image=nginx", "--replicas=3"]);
  await kubectlOk(server, ["apply", "-f", "-"], JSON.stringify(WIDGETS_CRD));
  await kubectlOk(server, ["wait", "--for", "condition=established", "--timeout=10s", "crd/widgets.example.com"]);
});
afterAll(() => server.stop());

test("kubectl get --subresource=scale prints printScale's NAME DESIRED AVAILABLE AGE, not the deployment's columns", async () => {
  const [header, row] = lines(await kubectlOk(server, ["-n", NS, "get", "deployment", "web", "--subresource=scale"]));
  expect(header).toEqual(["NAME", "DESIRED", "AVAILABLE", "AGE"]);
  expect(row.slice(0, 3)).toEqual(["web", "3", "0"]);
  const answer = await table(`/apis/apps/v1/namespaces/${NS}/deployments/web/scale`);
  expect(answer.columnDefinitions.map((c: { name: string; format: string }) => [c.name, c.format])).toEqual([
    ["Name", ""],
    ["Desired", ""],
    ["Available", ""],
    ["Age", ""],
  ]);
  // The status subresource still prints the deployment itself, as its StatusREST hands over to the store's printer.
  expect(lines(await kubectlOk(server, ["-n", NS, "get", "deployment", "web", "--subresource=status"]))[0]).toEqual([
    "NAME",
    "READY",
    "UP-TO-DATE",
    "AVAILABLE",
    "AGE",
  ]);
});

test("kubectl get flowschemas lists rows by matching precedence, then name (printFlowSchemaList)", async () => {
  const rows = lines(await kubectlOk(server, ["get", "flowschemas", "--no-headers"]));
  const stored = (await getJson(server, "/apis/flowcontrol.apiserver.k8s.io/v1beta3/flowschemas")).items;
  const precedence = new Map<string, number>(
    stored.map((fs: { metadata: { name: string }; spec: { matchingPrecedence: number } }) => [
      fs.metadata.name,
      fs.spec.matchingPrecedence,
    ]),
  );
  const printed = rows.map((row) => row[0]);
  const expected = [...printed].sort((a, b) => precedence.get(a)! - precedence.get(b)! || (a < b ? -1 : a > b ? 1 : 0));
  expect(printed.length).toBe(stored.length);
  expect(printed).toEqual(expected);
  expect(printed[0]).toBe("exempt");
  expect(printed.at(-1)).toBe("catch-all");
});

test("kubectl get csistoragecapacities prints printCSIStorageCapacity's NAME STORAGECLASSNAME CAPACITY", async () => {
  for (const [name, capacity] of [["sized", "10Gi"], ["unsized", undefined]]) {
    const body = { apiVersion: "storage.k8s.io/v1", kind: "CSIStorageCapacity", metadata: { name }, storageClassName: "fast", capacity };
    expect((await sendJson(server, "POST", `/apis/storage.k8s.io/v1/namespaces/${NS}/csistoragecapacities`, body)).status).toBe(201);
  }
  expect(lines(await kubectlOk(server, ["-n", NS, "get", "csistoragecapacities"]))).toEqual([
    ["NAME", "STORAGECLASSNAME", "CAPACITY"],
    ["sized", "fast", "10Gi"],
    ["unsized", "fast", "<unset>"],
  ]);
});

test("a finished pod's Table row carries printPod's Completed condition; a running pod's carries none", async () => {
  for (const [name, phase] of [["done", "Succeeded"], ["broken", "Failed"], ["busy", "Running"]]) {
    const pod = { apiVersion: "v1", kind: "Pod", metadata: { name }, spec: { containers: [{ name: "c", image: "busybox" }] } };
    expect((await sendJson(server, "POST", `/api/v1/namespaces/${NS}/pods`, pod)).status).toBe(201);
    const status = { status: { phase } };
    const patched = await sendJson(server, "PATCH", `/api/v1/namespaces/${NS}/pods/${name}/status`, status, "application/merge-patch+json");
    expect(patched.status).toBe(200);
  }
  const answer = await table(`/api/v1/namespaces/${NS}/pods`);
  const conditions = Object.fromEntries(
    answer.rows.map((row: { cells: string[]; conditions?: unknown }) => [row.cells[0], row.conditions]),
  );
  expect(conditions).toEqual({
    broken: [{ type: "Completed", status: "True", reason: "Failed", message: "The pod failed." }],
    busy: undefined,
    done: [{ type: "Completed", status: "True", reason: "Succeeded", message: "The pod has completed successfully." }],
  });
  expect(Object.keys(answer.rows.find((row: { cells: string[] }) => row.cells[0] === "done"))).toEqual(["cells", "conditions", "object"]);
});

test("custom resource cells follow the tableconvertor: first JSONPath value only, values kept only in a column of their type", async () => {
  const widget = {
    apiVersion: "example.com/v1",
    kind: "Widget",
    metadata: { name: "w" },
    spec: { tags: ["red", "blue"], size: 2.9, ratio: "high", since: "yesterday" },
  };
  await kubectlOk(server, ["-n", NS, "apply", "-f", "-"], JSON.stringify(widget));
  const answer = await table(`/apis/example.com/v1/namespaces/${NS}/widgets`);
  expect(answer.rows[0].cells).toEqual(["w", "red", 2, null, "<invalid>"]);
  expect(answer.columnDefinitions[2].description).toBe("Custom resource definition column (in JSONPath format): .spec.size");
  // kubectl leaves a null cell empty.
  expect(await kubectlOk(server, ["-n", NS, "get", "widgets", "--no-headers"])).toMatch(/^w\s+red\s+2\s+<invalid>\s*$/);
});
