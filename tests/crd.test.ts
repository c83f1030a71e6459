import { afterAll, beforeAll, expect, test } from "bun:test";
import { resolve } from "node:path";
import { createNamespace, expectStatus, getJson, openWatch, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";

const NS = "crd";
const CRD_FILE = resolve(import.meta.dir, "testdata/crontab-crd.yaml");
const CRONTABS = `/apis/stable.example.com/v1/namespaces/${NS}/crontabs`;
let server: TestServer;

function cronTab(name: string, spec: Record<string, unknown>): string {
  return JSON.stringify({ apiVersion: "stable.example.com/v1", kind: "CronTab", metadata: { name, namespace: NS }, spec });
}

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NS);
  await kubectlOk(server, ["apply", "-f", CRD_FILE]);
  await kubectlOk(server, ["wait", "--for", "condition=established", "--timeout=10s", "crd/crontabs.stable.example.com"]);
});
afterAll(() => server.stop());

test("an established CRD is served: discovery with short names and categories, Table columns, defaults", async () => {
  const resources = await kubectlOk(server, ["api-resources", "--api-group", "stable.example.com", "--no-headers"]);
  expect(resources.trim().split(/\s+/)).toEqual(["crontabs", "ct", "stable.example.com/v1", "true", "CronTab"]);
  await kubectlOk(server, ["apply", "-f", "-"], cronTab("first", { cronSpec: "*/5 * * * *", image: "img" }));
  const table = await kubectlOk(server, ["-n", NS, "get", "ct"]);
  expect(table.split("\n")[0].trim().split(/\s{2,}/)).toEqual(["NAME", "SPEC", "REPLICAS", "AGE"]);
  expect(table.split("\n")[1]).toMatch(/^first\s+\*\/5 \* \* \* \*\s+1\s+\d+s/);
  expect(await kubectlOk(server, ["-n", NS, "get", "all", "-o", "name"])).toContain("crontab.stable.example.com/first");
});

test("an invalid custom resource is refused with kube's field path and message, unknown fields are pruned", async () => {
  const invalid = await server.kubectl(["create", "-f", "-"], { stdin: cronTab("bad", { replicas: "two" }) });
  expect(invalid.code).toBe(1);
  expect(invalid.stderr).toContain('spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"');
  const created = await sendJson(server, "POST", CRONTABS, JSON.parse(cronTab("pruned", { image: "i", bogus: true })));
  expect(created.status).toBe(201);
  expect(created.body.spec).toEqual({ image: "i", replicas: 1 });
  expect(created.headers.get("warning")).toContain('unknown field \\"spec.bogus\\"');
});

test("kubectl explain describes a custom resource field from the CRD schema", async () => {
  const explained = await kubectlOk(server, ["explain", "crontab.spec.cronSpec"]);
  expect(explained).toContain("FIELD: cronSpec <string>");
  expect(explained).toContain("The cron schedule.");
});

test("status and scale subresources change only their part; kubectl scale works", async () => {
  await kubectlOk(server, ["apply", "-f", "-"], cronTab("scaled", { image: "i" }));
  await kubectlOk(server, ["-n", NS, "scale", "ct", "scaled", "--replicas=3"]);
  await kubectlOk(server, [
    "-n",
    NS,
    "patch",
    "ct",
    "scaled",
    "--subresource=status",
    "--type=merge",
    "-p",
    '{"status":{"replicas":3,"labelSelector":"app=x"},"spec":{"replicas":9}}',
  ]);
  const object = await getJson(server, `${CRONTABS}/scaled`);
  expect([object.spec.replicas, object.status.replicas, object.metadata.generation]).toEqual([3, 3, 2]);
  const scale = await getJson(server, `${CRONTABS}/scaled/scale`);
  expect([scale.kind, scale.apiVersion, scale.spec, scale.status]).toEqual(["Scale", "autoscaling/v1", { replicas: 3 }, {
    replicas: 3,
    selector: "app=x",
  }]);
});

test("custom resources select by metadata.name and metadata.namespace only, with crConverter.ConvertFieldLabel's 400 otherwise", async () => {
  await kubectlOk(server, ["apply", "-f", "-"], cronTab("selected", { image: "i" }));
  const byName = await getJson(server, `${CRONTABS}?fieldSelector=metadata.name%3Dselected`);
  expect(byName.items.map((item: { metadata: { name: string } }) => item.metadata.name)).toEqual(["selected"]);
  expect((await getJson(server, `${CRONTABS}?fieldSelector=metadata.namespace%3D${NS}`)).items.length).toBeGreaterThan(0);
  const refused = await sendJson(server, "GET", `${CRONTABS}?fieldSelector=spec.image%3Di`);
  expectStatus(refused, 400, "BadRequest", "field label not supported: spec.image");
});

test("server-side apply merges a list-map by its keys across field managers", async () => {
  const ports = (name: string, port: number) => cronTab("ssa", { ports: [{ name, port }] });
  await kubectlOk(server, ["apply", "--server-side", "--field-manager=one", "-f", "-"], ports("a", 1));
  await kubectlOk(server, ["apply", "--server-side", "--field-manager=two", "-f", "-"], ports("b", 2));
  expect((await getJson(server, `${CRONTABS}/ssa`)).spec.ports).toEqual([{ name: "a", port: 1 }, { name: "b", port: 2 }]);
});

test("a served version that is not the storage version reads and writes with its own apiVersion", async () => {
  const v1beta1 = `/apis/stable.example.com/v1beta1/namespaces/${NS}/crontabs`;
  const created = await sendJson(server, "POST", v1beta1, {
    apiVersion: "stable.example.com/v1beta1",
    kind: "CronTab",
    metadata: { name: "beta" },
    spec: { image: "b" },
  });
  expect(created.body.apiVersion).toBe("stable.example.com/v1beta1");
  expect((await getJson(server, `${CRONTABS}/beta`)).apiVersion).toBe("stable.example.com/v1");
  expect((await getJson(server, `${v1beta1}/first`)).apiVersion).toBe("stable.example.com/v1beta1");
});

test("watch of custom resources sees creates", async () => {
  const watch = await openWatch(server, `${CRONTABS}?watch=1&resourceVersion=0`);
  await kubectlOk(server, ["apply", "-f", "-"], cronTab("watched", { image: "w" }));
  const events = await watch.until((event) => event.object.metadata.name === "watched");
  await watch.close();
  expect(events.at(-1)!.type).toBe("ADDED");
});

test("a CRD whose singular and kind another CRD holds is not established, with NamesAccepted False", async () => {
  const clash = {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "crontabs2.stable.example.com" },
    spec: {
      group: "stable.example.com",
      scope: "Namespaced",
      names: { plural: "crontabs2", kind: "CronTab" },
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object" } } }],
    },
  };
  expect((await sendJson(server, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", clash)).status).toBe(201);
  await kubectlOk(server, ["wait", "--for", "condition=namesaccepted=false", "--timeout=10s", "crd/crontabs2.stable.example.com"]);
  const status = (await getJson(server, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/crontabs2.stable.example.com")).status;
  expect(status.conditions.map((c: { type: string; status: string; reason: string }) => `${c.type}=${c.status}/${c.reason}`)).toEqual([
    "NamesAccepted=False/SingularConflict",
    "Established=False/NotAccepted",
  ]);
});

test("a CRD asking for webhook conversion without a known ConversionReview version is refused with 422 (validateConversionReviewVersions)", async () => {
  const result = await server.kubectl(["apply", "-f", "-"], {
    stdin: JSON.stringify({
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: { name: "hooks.example.com" },
      spec: {
        group: "example.com",
        scope: "Cluster",
        names: { plural: "hooks", kind: "Hook" },
        conversion: { strategy: "Webhook", webhook: { conversionReviewVersions: ["v9"], clientConfig: { url: "https://example.com" } } },
        versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object" } } }],
      },
    }),
  });
  expect(result.stderr).toContain(
    'spec.conversion.conversionReviewVersions: Invalid value: []string{"v9"}: must include at least one of v1, v1beta1',
  );
});

test("creates while the CRD is terminating get kube's 405 (crdHandler serveResource), reads and deletes still work", async () => {
  const gadgets = "/apis/stable.example.com/v1/gadgets";
  const crd = {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "gadgets.stable.example.com" },
    spec: {
      group: "stable.example.com",
      scope: "Cluster",
      names: { plural: "gadgets", kind: "Gadget" },
      versions: [{
        name: "v1",
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } },
      }],
    },
  };
  await kubectlOk(server, ["apply", "-f", "-"], JSON.stringify(crd));
  await kubectlOk(server, ["wait", "--for", "condition=established", "--timeout=10s", "crd/gadgets.stable.example.com"]);
  const held = { apiVersion: "stable.example.com/v1", kind: "Gadget", metadata: { name: "held", finalizers: ["example.com/hold"] } };
  expect((await sendJson(server, "POST", gadgets, held)).status).toBe(201);
  await kubectlOk(server, ["delete", "crd", "gadgets.stable.example.com", "--wait=false"]);
  await kubectlOk(server, ["wait", "--for", "condition=terminating", "--timeout=10s", "crd/gadgets.stable.example.com"]);
  const refused = await sendJson(server, "POST", gadgets, {
    apiVersion: "stable.example.com/v1",
    kind: "Gadget",
    metadata: { name: "late" },
  });
  expect([refused.status, refused.body.reason, refused.body.message]).toEqual([
    405,
    "MethodNotAllowed",
    "create not allowed while custom resource definition is terminating",
  ]);
  expect((await server.request("GET", `${gadgets}/late`)).status).toBe(404);
  await kubectlOk(server, ["patch", "gadget", "held", "--type=merge", "-p", '{"metadata":{"finalizers":null}}']);
  await kubectlOk(server, ["wait", "--for=delete", "--timeout=20s", "crd/gadgets.stable.example.com"]);
});

test("deleting the CRD deletes its custom resources and stops serving them", async () => {
  expect((await getJson(server, CRONTABS)).items.length).toBeGreaterThan(0);
  await kubectlOk(server, ["delete", "crd", "crontabs.stable.example.com", "--timeout=20s"]);
  expect((await server.request("GET", CRONTABS)).status).toBe(404);
  const resources = await kubectlOk(server, ["api-resources", "--api-group", "stable.example.com", "--no-headers"]);
  expect(resources).not.toMatch(/^crontabs\s/m);
  // Defined again, the resource starts empty: the old objects were deleted, not just hidden.
  await kubectlOk(server, ["apply", "-f", CRD_FILE]);
  await kubectlOk(server, ["wait", "--for", "condition=established", "--timeout=10s", "crd/crontabs.stable.example.com"]);
  expect((await getJson(server, CRONTABS)).items).toEqual([]);
});

test("a custom resource without kind is refused with 400 as kube's json.Serializer.Decode into an Unstructured refuses it (NewMissingKindErr via transformDecodeError)", async () => {
  const body = JSON.stringify({ apiVersion: "stable.example.com/v1", metadata: { name: "kindless" }, spec: { image: "i" } });
  for (
    const [query, message] of [
      [
        "",
        `the object provided is unrecognized (must be of type CronTab): Object 'Kind' is missing in '${body}' (${body.slice(0, 30)} ...)`,
      ],
      ["?fieldValidation=Ignore", `CronTab in version "v1" cannot be handled as a CronTab: Object 'Kind' is missing in '${body}'`],
    ]
  ) {
    const answer = await server.request("POST", `${CRONTABS}${query}`, { body, headers: { "Content-Type": "application/json" } });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ kind: "Status", reason: "BadRequest", code: 400, message });
  }
  const created = await sendJson(server, "POST", CRONTABS, { ...JSON.parse(body), kind: "CronTab" });
  expect(created.status).toBe(201);
  const replaced = await server.request("PUT", `${CRONTABS}/kindless`, {
    body: JSON.stringify({ ...JSON.parse(body), metadata: created.body.metadata }),
    headers: { "Content-Type": "application/json" },
  });
  expect(replaced.status).toBe(400);
  expect((await replaced.json()).message).toStartWith(
    "the object provided is unrecognized (must be of type CronTab): Object 'Kind' is missing in '",
  );
});
