/** Anonymous requests (spec 5.7): on unless AlwaysAllow or --anonymous-auth=false; invalid credentials never become anonymous. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { writeFile } from "node:fs/promises";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlWith, scratchDir, whoami, WHOAMI_AUTHORIZER, writeModule, writeUserKubeconfig } from "./_authn.ts";

let scratch: Awaited<ReturnType<typeof scratchDir>>;
let authorizer: string;
let tokens: string;

beforeAll(async () => {
  scratch = await scratchDir();
  authorizer = await writeModule(scratch.path, "whoami.ts", WHOAMI_AUTHORIZER);
  tokens = join(scratch.path, "tokens.csv");
  await writeFile(tokens, "good-token,alice,1\n");
});
afterAll(async () => await scratch?.remove());

describe("with an authorizer module (anonymous on by default)", () => {
  let server: TestServer;
  beforeAll(async () => (server = await startServer([`--authorization-mode=${authorizer}`, `--token-auth-file=${tokens}`])));
  afterAll(async () => await server?.stop());

  test("a request without credentials arrives as system:anonymous in system:unauthenticated", async () => {
    const response = await server.requestAnonymous("GET", "/whoami");
    const message: string = (await response.json()).message;
    expect(JSON.parse(message.slice(message.indexOf("{")))).toEqual({ username: "system:anonymous", groups: ["system:unauthenticated"] });
  });

  test("kubectl with only basic-auth credentials (which 1.26 ignores) is served as anonymous", async () => {
    // A kubeconfig user with no credentials at all makes kubectl prompt for a password instead of sending the request.
    const basic = await writeUserKubeconfig(server, scratch.path, "basic", { username: "someone", password: "" });
    expect(await whoami(basic)).toEqual({ username: "system:anonymous", groups: ["system:unauthenticated"] });
    expect((await kubectlWith(basic, ["get", "namespaces", "-o", "name"])).stdout).toContain("namespace/default");
  });

  test("an invalid bearer token is 401, never anonymous", async () => {
    const invalid = await writeUserKubeconfig(server, scratch.path, "invalid", { token: "not-a-token" });
    const result = await kubectlWith(invalid, ["get", "--raw", "/whoami"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("(Unauthorized)");
    const response = await server.requestAnonymous("GET", "/api/v1/namespaces", { headers: { Authorization: "Bearer not-a-token" } });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ kind: "Status", reason: "Unauthorized", message: "Unauthorized", code: 401 });
  });
});

test("--anonymous-auth=false makes a request without credentials 401", async () => {
  const server = await startServer([`--authorization-mode=${authorizer}`, "--anonymous-auth=false"]);
  try {
    const basic = await writeUserKubeconfig(server, scratch.path, "basic-off", { username: "someone", password: "" });
    const result = await kubectlWith(basic, ["get", "--raw", "/api/v1/namespaces"]);
    expect((await server.requestAnonymous("GET", "/api/v1/namespaces")).status).toBe(401);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("(Unauthorized)");
  } finally {
    await server.stop();
  }
});

test("anonymous access is off under AlwaysAllow", async () => {
  const server = await startServer(["--authorization-mode=AlwaysAllow"]);
  try {
    expect((await server.requestAnonymous("GET", "/api/v1/namespaces")).status).toBe(401);
  } finally {
    await server.stop();
  }
});
