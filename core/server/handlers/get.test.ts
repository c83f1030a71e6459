/** The get handler through the in-process server: resourceVersion read as kube's APIObjectVersioner reads it. */
import { afterAll, expect, test } from "bun:test";
import { startInProcess } from "../testing.ts";

const server = await startInProcess();
afterAll(() => server.stop());

test("validateMinimumResourceVersion: a resourceVersion that is no uint64 is a 400 with ParseResourceVersion's words", async () => {
  await server.request("POST", "/api/v1/namespaces/default/configmaps", { body: { metadata: { name: "cm" } } });
  const answer = await server.json("GET", "/api/v1/namespaces/default/configmaps/cm?resourceVersion=abc");
  expect(answer.status).toBe(400);
  expect(answer.body.message).toBe(
    'invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax',
  );
});

test("resourceVersion=0 and a version already reached answer the object", async () => {
  const current = await server.json("GET", "/api/v1/namespaces/default/configmaps/cm");
  for (const rv of ["0", current.body.metadata.resourceVersion]) {
    expect((await server.json("GET", `/api/v1/namespaces/default/configmaps/cm?resourceVersion=${rv}`)).status).toBe(200);
  }
});

test("compact JSON is the stored text with resourceVersion leading metadata, as parsing and serializing again writes it", async () => {
  const deployment = {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "web", labels: { app: "web" }, annotations: { note: 'é \u2028 "quoted"' } },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: "web" } },
      template: { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "c", image: "nginx" }] } },
    },
  };
  expect((await server.request("POST", "/apis/apps/v1/namespaces/default/deployments", { body: deployment })).status).toBe(201);
  const compact = await (await server.request("GET", "/apis/apps/v1/namespaces/default/deployments/web")).text();
  // ?pretty is served from the parsed object; compacted, it must be byte for byte the stored-text answer.
  const pretty = await (await server.request("GET", "/apis/apps/v1/namespaces/default/deployments/web?pretty=true")).text();
  expect(compact).toBe(`${JSON.stringify(JSON.parse(pretty))}\n`);
  expect(Object.keys(JSON.parse(compact).metadata)[0]).toBe("resourceVersion");
});
