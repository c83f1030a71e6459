/** Bootstrap tokens (--enable-bootstrap-token-auth): Secrets in kube-system, with the real kubectl. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlWith, scratchDir, whoami, WHOAMI_AUTHORIZER, writeModule, writeUserKubeconfig } from "./_authn.ts";

let server: TestServer;
let scratch: Awaited<ReturnType<typeof scratchDir>>;

beforeAll(async () => {
  scratch = await scratchDir();
  const authorizer = await writeModule(scratch.path, "whoami.ts", WHOAMI_AUTHORIZER);
  server = await startServer(["--enable-bootstrap-token-auth", `--authorization-mode=${authorizer}`]);
});

afterAll(async () => {
  await server?.stop();
  await scratch?.remove();
});

async function createTokenSecret(id: string, secret: string, extra: Record<string, string> = {}): Promise<void> {
  const manifest = {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: `bootstrap-token-${id}`, namespace: "kube-system" },
    type: "bootstrap.kubernetes.io/token",
    stringData: { "token-id": id, "token-secret": secret, "usage-bootstrap-authentication": "true", ...extra },
  };
  const created = await server.kubectl(["create", "-f", "-"], { stdin: JSON.stringify(manifest) });
  expect(created.stderr).toBe("");
}

async function kubeconfigFor(token: string): Promise<string> {
  return writeUserKubeconfig(server, scratch.path, token.slice(0, 6), { token });
}

test("a bootstrap token is system:bootstrap:<id> in system:bootstrappers and its auth-extra-groups", async () => {
  await createTokenSecret("abcdef", "0123456789abcdef", { "auth-extra-groups": "system:bootstrappers:kubeadm:default-node-token" });
  expect(await whoami(await kubeconfigFor("abcdef.0123456789abcdef"))).toEqual({
    username: "system:bootstrap:abcdef",
    groups: ["system:bootstrappers", "system:bootstrappers:kubeadm:default-node-token", "system:authenticated"],
  });
});

test("an expired bootstrap token, one not for authentication, or a wrong secret is 401", async () => {
  await createTokenSecret("expird", "0123456789abcdef", { expiration: "2020-01-01T00:00:00Z" });
  await createTokenSecret("nouse0", "0123456789abcdef", { "usage-bootstrap-authentication": "false" });
  await createTokenSecret("wrong0", "0123456789abcdef");
  for (const token of ["expird.0123456789abcdef", "nouse0.0123456789abcdef", "wrong0.fedcba9876543210"]) {
    const result = await kubectlWith(await kubeconfigFor(token), ["get", "namespaces"]);
    expect({ token, code: result.code, unauthorized: result.stderr.includes("(Unauthorized)") }).toEqual({
      token,
      code: 1,
      unauthorized: true,
    });
  }
});

test("deleting the Secret revokes the token at once", async () => {
  await createTokenSecret("gone00", "0123456789abcdef");
  const kubeconfig = await kubeconfigFor("gone00.0123456789abcdef");
  expect((await whoami(kubeconfig)).username).toBe("system:bootstrap:gone00");
  await server.kubectl(["delete", "secret", "-n", "kube-system", "bootstrap-token-gone00"]);
  expect((await kubectlWith(kubeconfig, ["get", "namespaces"])).stderr).toContain("(Unauthorized)");
});
