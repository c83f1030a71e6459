/**
 * kubectl's client-side validation falls back to /openapi/v2 in gnostic protobuf for kinds whose OpenAPI v3
 * has no PATCH operation (reviews, bindings) and for `kind: List` files; these must work without --validate=false.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createNamespace, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

const NS = "openapi-v2";
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NS);
});
afterAll(async () => {
  await server?.stop();
});

function configMapList(suffix: string): string {
  return [
    "apiVersion: v1",
    "kind: List",
    "items:",
    ...["a", "b"].flatMap((name) => [
      "- apiVersion: v1",
      "  kind: ConfigMap",
      "  metadata:",
      `    name: ${name}-${suffix}`,
      `    namespace: ${NS}`,
      "  data: {k: v}",
    ]),
  ].join("\n");
}

test("/openapi/v2 answers the gnostic protobuf form when kubectl asks for it only", async () => {
  const response = await server.request("GET", "/openapi/v2", {
    headers: { Accept: "application/com.github.proto-openapi.spec.v2@v1.0+protobuf" },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/com.github.proto-openapi.spec.v2.v1.0+protobuf");
  const bytes = new Uint8Array(await response.arrayBuffer());
  // Document field 1 (swagger) = "2.0".
  expect([...bytes.subarray(0, 5)]).toEqual([0x0a, 0x03, 0x32, 0x2e, 0x30]);
});

test("kubectl create -f of a TokenReview validates against /openapi/v2 and succeeds", async () => {
  const token = await sendJson(server, "POST", `/api/v1/namespaces/${NS}/serviceaccounts/default/token`, {
    apiVersion: "authentication.k8s.io/v1",
    kind: "TokenRequest",
    spec: {},
  });
  expect(token.status).toBe(201);
  const review = ["apiVersion: authentication.k8s.io/v1", "kind: TokenReview", "spec:", `  token: ${token.body.status.token}`].join("\n");
  const result = await server.kubectl(["create", "-f", "-", "-o", "jsonpath={.status.authenticated} {.status.user.username}"], {
    stdin: review,
  });
  expect(result.stderr).toBe("");
  expect(result.stdout).toBe(`true system:serviceaccount:${NS}:default`);
});

test("kubectl create -f of a kind: List with two ConfigMaps creates both", async () => {
  const result = await server.kubectl(["create", "-f", "-"], { stdin: configMapList("created") });
  expect(result.stderr).toBe("");
  expect(result.stdout).toBe(`configmap/a-created created\nconfigmap/b-created created\n`);
});

test("kubectl apply -f of a kind: List with two ConfigMaps applies both", async () => {
  const result = await server.kubectl(["apply", "-f", "-"], { stdin: configMapList("applied") });
  expect(result.stderr).toBe("");
  expect(result.stdout).toBe(`configmap/a-applied created\nconfigmap/b-applied created\n`);
  const names = await server.kubectl(["get", "configmaps", "a-applied", "b-applied", "-n", NS, "-o", "jsonpath={.items[*].data.k}"]);
  expect(names.stdout).toBe("v v");
});

test("kubectl validation through /openapi/v2 still rejects an unknown field", async () => {
  const review = ["apiVersion: authentication.k8s.io/v1", "kind: TokenReview", "spec:", "  token: x", "  bogus: 1"].join("\n");
  const result = await server.kubectl(["create", "-f", "-"], { stdin: review });
  expect(result.code).not.toBe(0);
  expect(result.stderr).toContain(
    'ValidationError(TokenReview.spec): unknown field "bogus" in io.k8s.api.authentication.v1.TokenReviewSpec',
  );
});

test("kubectl explain keeps using /openapi/v3", async () => {
  const result = await server.kubectl(["explain", "configmaps.data", "-v=6"]);
  expect(result.code).toBe(0);
  expect(result.stdout).toContain("FIELD: data <map[string]string>");
  expect(result.stderr).toContain("/openapi/v3");
  expect(result.stderr).not.toContain("/openapi/v2");
});
