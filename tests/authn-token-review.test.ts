/** TokenReview (authentication.k8s.io/v1 and v1beta1 tokenreviews create) answered by the server's own token authenticators. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { writeFile } from "node:fs/promises";
import { startServer, type TestServer } from "./harness.ts";
import { expectStatus, sendJson } from "./_api.ts";
import { scratchDir } from "./_authn.ts";

const PATH = "/apis/authentication.k8s.io/v1/tokenreviews";
let server: TestServer;
let scratch: Awaited<ReturnType<typeof scratchDir>>;

beforeAll(async () => {
  scratch = await scratchDir();
  const tokens = join(scratch.path, "tokens.csv");
  await writeFile(tokens, 'alice-token,alice,uid-1,"dev,ops"\n');
  server = await startServer([`--token-auth-file=${tokens}`, "--api-audiences=kubun-api"]);
});

afterAll(async () => {
  await server?.stop();
  await scratch?.remove();
});

const review = (spec: Record<string, unknown>) => ({ apiVersion: "authentication.k8s.io/v1", kind: "TokenReview", spec });

test("kubectl create of a TokenReview reports the token's user, groups and audiences", async () => {
  const result = await server.kubectl(["create", "-f", "-", "-o", "json"], { stdin: JSON.stringify(review({ token: "alice-token" })) });
  expect(result.stderr).toBe("");
  expect(JSON.parse(result.stdout)).toEqual({
    apiVersion: "authentication.k8s.io/v1",
    kind: "TokenReview",
    metadata: { creationTimestamp: null },
    spec: { token: "alice-token" },
    status: {
      authenticated: true,
      user: { username: "alice", uid: "uid-1", groups: ["dev", "ops", "system:authenticated"] },
      audiences: ["kubun-api"],
    },
  });
});

test("the v1beta1 TokenReview of spec 2.6 is answered in its own version", async () => {
  const body = { apiVersion: "authentication.k8s.io/v1beta1", kind: "TokenReview", spec: { token: "alice-token" } };
  const answer = await sendJson(server, "POST", "/apis/authentication.k8s.io/v1beta1/tokenreviews", body);
  expect(answer.status).toBe(201);
  expect(answer.body).toMatchObject({
    apiVersion: "authentication.k8s.io/v1beta1",
    kind: "TokenReview",
    status: { authenticated: true, user: { username: "alice" } },
  });
  const unknown = await sendJson(server, "POST", "/apis/authentication.k8s.io/v1beta1/tokenreviews", { ...body, spec: { token: "nope" } });
  expect(unknown.body.status).toEqual({ user: {}, error: "invalid bearer token" });
});

test("an unknown token is not authenticated and reads 'invalid bearer token'", async () => {
  const answer = await sendJson(server, "POST", PATH, review({ token: "nope" }));
  expect(answer.status).toBe(201);
  expect(answer.body.status).toEqual({ user: {}, error: "invalid bearer token" });
});

test("spec.audiences the token is not for make it unknown; the server's audience is reported back", async () => {
  const other = await sendJson(server, "POST", PATH, review({ token: "alice-token", audiences: ["elsewhere"] }));
  expect(other.body.status).toEqual({ user: {}, error: "invalid bearer token" });
  const ours = await sendJson(server, "POST", PATH, review({ token: "alice-token", audiences: ["elsewhere", "kubun-api"] }));
  expect(ours.body.status.audiences).toEqual(["kubun-api"]);
  expect(ours.body.spec.audiences).toEqual(["elsewhere", "kubun-api"]);
});

test("an empty token is 400 with kube's message; other verbs and namespaced paths are refused", async () => {
  expectStatus(await sendJson(server, "POST", PATH, review({})), 400, "BadRequest", "token is required for TokenReview in authentication");
  expectStatus(await sendJson(server, "GET", PATH), 405, "MethodNotAllowed");
  expectStatus(
    await sendJson(server, "POST", "/apis/authentication.k8s.io/v1/namespaces/default/tokenreviews", review({ token: "alice-token" })),
    404,
    "NotFound",
  );
});
