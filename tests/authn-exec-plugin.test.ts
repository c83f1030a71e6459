/** kubectl's exec credential plugins (spec 5.9): a script printing an ExecCredential, v1 and v1beta1, token and cert/key. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { readFile, writeFile } from "node:fs/promises";
import { parse } from "yaml";
import { startServer, type TestServer } from "./harness.ts";
import { issueKubeconfig, kubectlWith, scratchDir, whoami, WHOAMI_AUTHORIZER, writeModule, writeUserKubeconfig } from "./_authn.ts";

let server: TestServer;
let scratch: Awaited<ReturnType<typeof scratchDir>>;

beforeAll(async () => {
  scratch = await scratchDir();
  const tokens = join(scratch.path, "tokens.csv");
  await writeFile(tokens, 'exec-token,exec-user,7,"from-exec"\n');
  const authorizer = await writeModule(scratch.path, "whoami.ts", WHOAMI_AUTHORIZER);
  server = await startServer([`--token-auth-file=${tokens}`, `--authorization-mode=${authorizer}`]);
});

afterAll(async () => {
  await server?.stop();
  await scratch?.remove();
});

/** A plugin script that records the ExecCredential it was given and prints `status` in `version`. */
async function writePlugin(name: string, version: string, status: Record<string, string>): Promise<void> {
  const credential = JSON.stringify({ apiVersion: `client.authentication.k8s.io/${version}`, kind: "ExecCredential", status });
  const script = `#!/bin/sh\nprintf '%s' "$KUBERNETES_EXEC_INFO" > "$EXEC_INFO_OUT"\ncat <<'JSON'\n${credential}\nJSON\n`;
  await writeFile(join(scratch.path, name), script, { mode: 0o755 });
}

function execUser(name: string, version: string): Record<string, unknown> {
  // A relative command resolves against the kubeconfig's directory.
  const env = [{ name: "EXEC_INFO_OUT", value: join(scratch.path, `${name}.info.json`) }];
  return {
    exec: {
      apiVersion: `client.authentication.k8s.io/${version}`,
      command: `./${name}`,
      env,
      interactiveMode: "Never",
      installHint: "the test writes it",
    },
  };
}

for (const version of ["v1", "v1beta1"]) {
  test(`a ${version} plugin's token authenticates kubectl, and the plugin is told the version and non-interactive mode`, async () => {
    const name = `token-${version}.sh`;
    await writePlugin(name, version, { token: "exec-token" });
    const kubeconfig = await writeUserKubeconfig(server, scratch.path, `token-${version}`, execUser(name, version));
    expect(await whoami(kubeconfig)).toEqual({ username: "exec-user", uid: "7", groups: ["from-exec", "system:authenticated"] });
    const info = JSON.parse(await readFile(join(scratch.path, `${name}.info.json`), "utf8"));
    expect(info).toMatchObject({
      apiVersion: `client.authentication.k8s.io/${version}`,
      kind: "ExecCredential",
      spec: { interactive: false },
    });
  });

  test(`a ${version} plugin's client certificate and key authenticate kubectl`, async () => {
    const issued = parse(
      (await issueKubeconfig(["--user", `cert-${version}`, "--group", "exec-certs", "--data-dir", server.dataDir])).stdout,
    );
    const pem = (field: string) => Buffer.from(issued.users[0].user[field], "base64").toString("utf8");
    const name = `cert-${version}.sh`;
    await writePlugin(name, version, { clientCertificateData: pem("client-certificate-data"), clientKeyData: pem("client-key-data") });
    const kubeconfig = await writeUserKubeconfig(server, scratch.path, `cert-${version}`, execUser(name, version));
    expect(await whoami(kubeconfig)).toEqual({ username: `cert-${version}`, groups: ["exec-certs", "system:authenticated"] });
  });
}

test("a plugin whose token the server rejects makes kubectl fail with 401", async () => {
  await writePlugin("bad.sh", "v1", { token: "not-in-the-file" });
  const kubeconfig = await writeUserKubeconfig(server, scratch.path, "bad", execUser("bad.sh", "v1"));
  const result = await kubectlWith(kubeconfig, ["get", "--raw", "/api/v1/namespaces"]);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain("(Unauthorized)");
});
