/** kubectl with a bearer token instead of the admin certificate, through a kubeconfig built per call. */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CommandResult, TestServer } from "./harness.ts";
import { kubectlWith, writeUserKubeconfig } from "./_authn.ts";

/** Writes a kubeconfig for the server (its URL and CA) whose user sends `token`; returns a kubectl bound to it. */
export async function kubectlAs(server: TestServer, user: { token: string }): Promise<(args: string[]) => Promise<CommandResult>> {
  const dir = await mkdtemp(join(tmpdir(), "kubun-kubeconfig-"));
  const kubeconfig = await writeUserKubeconfig(server, dir, "user", { token: user.token });
  return (args) => kubectlWith(kubeconfig, args);
}
