/** Client-certificate users for end-to-end tests: certificates from the data dir's CA, one kubeconfig each. */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { issueClientCertificate, loadCertificateAuthority } from "../core/server/certificates.ts";
import { writeKubeconfig } from "../core/server/kubeconfig.ts";
import { type CommandResult, runKubectl, type TestServer } from "./harness.ts";

export interface TestUser {
  kubeconfig: string;
  kubectl(args: string[], opts?: { stdin?: string }): Promise<CommandResult>;
}

/** A user named `name` in `groups` (plus system:authenticated, which the server adds). */
export async function createUser(server: TestServer, name: string, groups: string[] = []): Promise<TestUser> {
  const ca = await loadCertificateAuthority(
    await readFile(join(server.dataDir, "ca.crt"), "utf8"),
    await readFile(join(server.dataDir, "ca.key"), "utf8"),
  );
  const issued = await issueClientCertificate(ca, { commonName: name, organizations: groups, days: 1 });
  const kubeconfig = join(server.dataDir, `${name.replaceAll(":", "_")}.kubeconfig`);
  await writeKubeconfig(kubeconfig, server.url, {
    caPem: await readFile(join(server.dataDir, "ca.crt"), "utf8"),
    clientCertPem: issued.certPem,
    clientKeyPem: issued.keyPem,
  });
  return { kubeconfig, kubectl: (args, opts) => runKubectl(["--kubeconfig", kubeconfig, ...args], opts?.stdin) };
}
