/**
 * kubun's entry point, and the only module that reads argv and the environment:
 * flags → configuration → server.
 */
import process from "node:process";
import { FlagError, helpText, parseFlags } from "./core/server/flags.ts";
import { runServer, stopOnSignals } from "./core/server/run.ts";
import { loadPluginSet } from "./plugin-set.ts";
import { withFrontProxyDefaults } from "./core/server/front-proxy.ts";
import { GIT_VERSION } from "./core/server/version.ts";
import { configureLogging, localZoneIsUtc, type LogFormat, validateLogFormat } from "./core/log/mod.ts";
import { issueUserKubeconfig, KUBECONFIG_USAGE, parseKubeconfigArgs } from "./core/server/kubeconfig-command.ts";
import { parseSnapshotArgs, runSnapshotCommand } from "./core/server/snapshot-command.ts";
import { parseMigrateArgs, runMigrateCommand } from "./core/server/migrate-command.ts";
import { ADMISSION_TEST_USAGE, parseAdmissionTestArgs, runAdmissionTest } from "./plugins/admission-test-command.ts";
import { initSdkProject, parseSdkArgs, SDK_USAGE } from "./plugins/sdk-init-command.ts";

async function main(argv: string[], env: Record<string, string | undefined>): Promise<void> {
  if (argv[0] === "kubeconfig") return kubeconfigCommand(argv.slice(1), env);
  if (argv[0] === "snapshot") {
    return void process.stdout.write(await runSnapshotCommand(parseSnapshotArgs(argv.slice(1), parseFlags([], env).dataDir)));
  }
  if (argv[0] === "migrate") {
    return void process.stdout.write(await runMigrateCommand(parseMigrateArgs(argv.slice(1)), (line) => process.stderr.write(`${line}\n`)));
  }
  if (argv[0] === "admission") return admissionCommand(argv.slice(1));
  if (argv[0] === "sdk") return sdkCommand(argv.slice(1));
  const config = withFrontProxyDefaults(parseFlags(argv, env));
  if (config.help) {
    process.stdout.write(helpText());
    return;
  }
  if (config.version) {
    process.stdout.write(`Kubernetes ${GIT_VERSION}\n`);
    return;
  }
  // component-base/logs ValidateAndApply: as early as possible, so start-up already logs in the chosen format.
  const logFormatProblem = validateLogFormat(config.loggingFormat);
  if (logFormatProblem) throw new Error(logFormatProblem);
  configureLogging({ verbosity: config.verbosity, format: config.loggingFormat as LogFormat, localTimeIsUtc: localZoneIsUtc(env.TZ) });
  const server = await runServer(config, await loadPluginSet(config));
  stopOnSignals(server, (code) => process.exit(code));
}

/** `kubun kubeconfig ...`: prints a kubeconfig for another user (the data dir defaults to the server's --data-dir). */
async function kubeconfigCommand(args: string[], env: Record<string, string | undefined>): Promise<void> {
  const command = parseKubeconfigArgs(args, parseFlags([], env).dataDir);
  process.stdout.write(command.help ? KUBECONFIG_USAGE : await issueUserKubeconfig(command));
}

/** `kubun admission test PLUGIN --fixtures DIR`: exit code 1 when a fixture fails. */
async function admissionCommand(args: string[]): Promise<void> {
  const command = parseAdmissionTestArgs(args);
  if (command.help) return void process.stdout.write(ADMISSION_TEST_USAGE);
  const { output, exitCode } = await runAdmissionTest(command);
  process.stdout.write(output);
  process.exitCode = exitCode;
}

/** `kubun sdk init DIR`. */
async function sdkCommand(args: string[]): Promise<void> {
  const command = parseSdkArgs(args);
  if (command.help) return void process.stdout.write(SDK_USAGE);
  const written = await initSdkProject(command.dir);
  process.stdout.write(written.map((path) => `created ${path}\n`).join(""));
}

main(process.argv.slice(2), process.env).catch((error: unknown) => {
  process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
  if (error instanceof FlagError) process.stderr.write("Run 'kubun --help' for usage.\n");
  process.exit(1);
});
