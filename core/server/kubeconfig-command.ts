/**
 * `kubun kubeconfig --user NAME [--group G]... [--data-dir DIR] [--server URL]`: issues a client certificate
 * from the data directory's CA (CN = user, O = groups) and returns a kubeconfig for it. The server URL defaults
 * to the one in the data directory's admin kubeconfig.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "yaml";
import { loadCertificateAuthority } from "./certificates.ts";
import { FlagError } from "./flags.ts";
import { renderKubeconfig } from "./kubeconfig.ts";
import { issueClientCertificate, pkiFiles } from "./pki.ts";

export interface KubeconfigCommand {
  user: string;
  groups: string[];
  dataDir: string;
  /** Empty: the admin kubeconfig's server. */
  server: string;
  help: boolean;
}

const CERTIFICATE_DAYS = 365;

export const KUBECONFIG_USAGE = `Issue a client certificate from the data directory's CA and print a kubeconfig for it.

Usage:
  kubun kubeconfig --user NAME [--group GROUP]... [--data-dir DIR] [--server URL]

Flags:
      --data-dir string   Data directory holding the CA (default: the server's --data-dir)
      --group strings     Group of the user (the certificate's O); repeatable
  -h, --help              help for kubeconfig
      --server string     API server URL (default: the one in the data directory's admin.kubeconfig)
      --user string       User name (the certificate's CN); required
`;

const VALUE_FLAGS = new Set(["user", "group", "data-dir", "server"]);

/** Reads the sub-command's arguments; `defaultDataDir` is the server's own --data-dir setting. */
export function parseKubeconfigArgs(argv: string[], defaultDataDir: string): KubeconfigCommand {
  const command: KubeconfigCommand = { user: "", groups: [], dataDir: defaultDataDir, server: "", help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "-h" || arg === "--help") {
      command.help = true;
      continue;
    }
    const match = /^--([a-z-]+)(?:=(.*))?$/s.exec(arg);
    if (!match) throw new FlagError(`"kubun kubeconfig" does not take any arguments, got ${JSON.stringify([arg])}`);
    const [, name, inline] = match as unknown as [string, string, string | undefined];
    if (!VALUE_FLAGS.has(name)) throw new FlagError(`unknown flag: --${name}`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new FlagError(`flag needs an argument: --${name}`);
    if (name === "user") command.user = value;
    if (name === "group") command.groups.push(value);
    if (name === "data-dir") command.dataDir = value;
    if (name === "server") command.server = value;
  }
  if (!command.help && command.user === "") throw new FlagError('required flag(s) "user" not set');
  return command;
}

async function readOrExplain(path: string, dataDir: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    throw new Error(`${path} does not exist: start kubun with --data-dir ${dataDir} once first`);
  }
}

export async function issueUserKubeconfig(command: KubeconfigCommand): Promise<string> {
  const files = pkiFiles(command.dataDir);
  const caPem = await readOrExplain(files.caCert, command.dataDir);
  const ca = await loadCertificateAuthority(caPem, await readOrExplain(files.caKey, command.dataDir));
  const server = command.server || adminServer(await readOrExplain(join(command.dataDir, "admin.kubeconfig"), command.dataDir));
  const issued = await issueClientCertificate(ca, { commonName: command.user, organizations: command.groups, days: CERTIFICATE_DAYS });
  return renderKubeconfig(server, { caPem, clientCertPem: issued.certPem, clientKeyPem: issued.keyPem, userName: command.user });
}

function adminServer(kubeconfig: string): string {
  return (parse(kubeconfig) as { clusters: { cluster: { server: string } }[] }).clusters[0]!.cluster.server;
}
