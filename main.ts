/**
 * kubun's entry point, and the only module that reads argv and the environment:
 * flags → configuration → server.
 */
import process from "node:process";
import { AUTHENTICATORS, AUTHORIZERS } from "./auth-plugins/mod.ts";
import type { AuthenticatorFactory } from "./core/auth/authentication.ts";
import type { ControllerPluginFactory } from "./core/controllers/plugin/types.ts";
import { FlagError, helpText, parseFlags } from "./core/server/flags.ts";
import { importPluginModule, loadPlugin } from "./plugins/loader.ts";
import { runServer, stopOnSignals } from "./core/server/run.ts";
import { withFrontProxyDefaults } from "./core/aggregator/front-proxy.ts";
import { loadAdmissionPlugins } from "./admission-plugins/load.ts";
import { GIT_VERSION } from "./core/server/version.ts";
import { issueUserKubeconfig, KUBECONFIG_USAGE, parseKubeconfigArgs } from "./core/server/kubeconfig-command.ts";
import { parseSnapshotArgs, runSnapshotCommand } from "./core/server/snapshot-command.ts";

async function main(argv: string[], env: Record<string, string | undefined>): Promise<void> {
  if (argv[0] === "kubeconfig") return kubeconfigCommand(argv.slice(1), env);
  if (argv[0] === "snapshot") {
    return void process.stdout.write(runSnapshotCommand(parseSnapshotArgs(argv.slice(1), parseFlags([], env).dataDir)));
  }
  const config = withFrontProxyDefaults(parseFlags(argv, env));
  if (config.help) {
    process.stdout.write(helpText());
    return;
  }
  if (config.version) {
    process.stdout.write(`Kubernetes ${GIT_VERSION}\n`);
    return;
  }
  const authenticators = [
    ...(await Promise.all(AUTHENTICATORS.filter((entry) => entry.enabled(config)).map((entry) => entry.load()))),
    ...(await Promise.all(config.authenticationPlugin.map((path) => importPluginModule<AuthenticatorFactory>(path, "authentication")))),
  ];
  const authorizers = await Promise.all(config.authorizationMode.map((mode) => loadPlugin(mode, AUTHORIZERS, "authorization")));
  const admissionPlugins = await loadAdmissionPlugins(config);
  const controllerPlugins = await Promise.all(
    config.controllerPlugin.map((path) => importPluginModule<ControllerPluginFactory>(path, "controller")),
  );
  const server = await runServer(config, { authenticators, authorizers, admissionPlugins, controllerPlugins });
  stopOnSignals(server, (code) => process.exit(code));
}

/** `kubun kubeconfig ...`: prints a kubeconfig for another user (the data dir defaults to the server's --data-dir). */
async function kubeconfigCommand(args: string[], env: Record<string, string | undefined>): Promise<void> {
  const command = parseKubeconfigArgs(args, parseFlags([], env).dataDir);
  process.stdout.write(command.help ? KUBECONFIG_USAGE : await issueUserKubeconfig(command));
}

main(process.argv.slice(2), process.env).catch((error: unknown) => {
  process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
  if (error instanceof FlagError) process.stderr.write("Run 'kubun --help' for usage.\n");
  process.exit(1);
});
