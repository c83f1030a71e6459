/** A user's authenticator module (--authentication-plugin=<path>) loaded by the compiled binary. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { resolve } from "node:path";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlWith, scratchDir, whoami, WHOAMI_AUTHORIZER, writeModule, writeUserKubeconfig } from "./_authn.ts";

const SDK = resolve(import.meta.dir, "../plugins/sdk.ts");

// Type-only imports vanish when the module is loaded, so the module needs nothing beside itself at run time.
const AUTHENTICATOR = `
import type { AuthenticatorFactory, TokenAuthenticator } from ${JSON.stringify(SDK)};

const factory: AuthenticatorFactory = ({ log }) => {
  log.info("sesame authenticator ready");
  const sesame: TokenAuthenticator = {
    authenticateToken(token) {
      if (token === "open-sesame") return Promise.resolve({ kind: "user", user: { username: "ali-baba", uid: "40", groups: ["thieves"], extra: { cave: ["treasure"] } } });
      if (token.startsWith("sesame-")) return Promise.resolve({ kind: "error", message: "the cave is closed" });
      return Promise.resolve({ kind: "not-mine" });
    },
  };
  return sesame;
};
export default factory;
`;

let server: TestServer;
let scratch: Awaited<ReturnType<typeof scratchDir>>;

beforeAll(async () => {
  scratch = await scratchDir();
  const authenticator = await writeModule(scratch.path, "sesame-authn.ts", AUTHENTICATOR);
  const authorizer = await writeModule(scratch.path, "whoami.ts", WHOAMI_AUTHORIZER);
  server = await startServer([`--authentication-plugin=${authenticator}`, `--authorization-mode=${authorizer}`]);
});

afterAll(async () => {
  await server?.stop();
  await scratch?.remove();
});

test("a token the module accepts authenticates as the user it returns", async () => {
  const kubeconfig = await writeUserKubeconfig(server, scratch.path, "ali", { token: "open-sesame" });
  expect(await whoami(kubeconfig)).toEqual({
    username: "ali-baba",
    uid: "40",
    groups: ["thieves", "system:authenticated"],
    extra: { cave: ["treasure"] },
  });
  expect((await kubectlWith(kubeconfig, ["get", "namespaces", "-o", "name"])).stdout).toContain("namespace/default");
});

test("a token the module rejects is 401", async () => {
  const kubeconfig = await writeUserKubeconfig(server, scratch.path, "closed", { token: "sesame-wrong" });
  expect((await kubectlWith(kubeconfig, ["get", "namespaces"])).stderr).toContain("(Unauthorized)");
});
