/**
 * kube-apiserver's command line (the flags kubun supports), declared in the `_flags-*.ts` tables by section: a
 * new flag is one `defineFlag` entry there plus its field in server-config.ts. Sources, strongest first: command
 * line, KUBUN_<NAME> environment variables, the --config YAML file, the defaults.
 */
import type { FlagType } from "./flag-types.ts";
import type { FlagSpec } from "./_flag-spec.ts";
import type { ServerConfig } from "../config/mod.ts";
import { ADMISSION_FLAGS } from "./_flags-admission.ts";
import { AUDIT_FLAGS } from "./_flags-audit.ts";
import { AUTHENTICATION_FLAGS, AUTHORIZATION_FLAGS } from "./_flags-auth.ts";
import { CONTROLLER_FLAGS } from "./_flags-controllers.ts";
import { ETCD_FLAGS } from "./_flags-etcd.ts";
import { GENERIC_FLAGS, GLOBAL_FLAGS, LOGS_FLAGS, STORAGE_FLAGS } from "./_flags-serving.ts";
import { readConfigFile } from "./config-file.ts";

export type { ServerConfig } from "../config/mod.ts";

// Sections appear in --help in the order of their first flag.
const FLAGS: readonly FlagSpec[] = [
  ...GENERIC_FLAGS,
  ...AUTHENTICATION_FLAGS,
  ...ADMISSION_FLAGS,
  ...AUTHORIZATION_FLAGS,
  ...ETCD_FLAGS,
  ...STORAGE_FLAGS,
  ...CONTROLLER_FLAGS,
  ...AUDIT_FLAGS,
  ...LOGS_FLAGS,
  ...GLOBAL_FLAGS,
];

/** Rejected command-line input; the message reads like cobra's ("unknown flag: --foo"). */
export class FlagError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FlagError";
  }
}

function defaultConfig(): ServerConfig {
  return Object.fromEntries(FLAGS.map((flag) => [flag.key, flag.defaultValue])) as unknown as ServerConfig;
}

export function parseFlags(argv: string[], env: Record<string, string | undefined> = {}): ServerConfig {
  const fromCommandLine = readCommandLine(argv);
  const fromEnv = readEnv(env);
  const configPath = fromCommandLine.get("config") ?? fromEnv.get("config");
  const fromFile = configPath ? readConfigFile(configPath) : new Map<string, string>();
  for (const name of fromFile.keys()) {
    if (name === "config" || !findFlag(name)) throw new FlagError(`unknown flag in config file ${configPath}: ${name}`);
  }
  const config = defaultConfig() as unknown as Record<string, unknown>;
  for (const source of [fromFile, fromEnv, fromCommandLine]) {
    for (const [name, text] of source) {
      const flag = findFlag(name)!;
      config[flag.key] = parseValue(flag, text);
    }
  }
  return config as unknown as ServerConfig;
}

function readCommandLine(argv: string[]): Map<string, string> {
  const values = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positional.push(arg);
      continue;
    }
    const { flag, inlineValue } = lookUpArgument(arg);
    let value: string;
    if (inlineValue !== undefined) value = inlineValue;
    else if (flag.type.isBoolean) value = "true";
    else if (i + 1 < argv.length) value = argv[++i]!;
    else throw new FlagError(`flag needs an argument: ${arg}`);
    const earlier = values.get(flag.name);
    values.set(flag.name, flag.type.isList && earlier !== undefined ? `${earlier},${value}` : value);
  }
  if (positional.length > 0) throw new FlagError(`"kubun" does not take any arguments, got ${JSON.stringify(positional)}`);
  return values;
}

function lookUpArgument(arg: string): { flag: FlagSpec; inlineValue?: string } {
  if (arg.startsWith("--")) {
    const equals = arg.indexOf("=");
    const name = equals === -1 ? arg.slice(2) : arg.slice(2, equals);
    const flag = findFlag(name);
    if (!flag) throw new FlagError(`unknown flag: --${name}`);
    return { flag, inlineValue: equals === -1 ? undefined : arg.slice(equals + 1) };
  }
  const letter = arg[1]!;
  const flag = FLAGS.find((candidate) => candidate.shorthand === letter);
  if (!flag) throw new FlagError(`unknown shorthand flag: '${letter}' in ${arg}`);
  const rest = arg.slice(2);
  return { flag, inlineValue: rest === "" ? undefined : rest.replace(/^=/, "") };
}

function readEnv(env: Record<string, string | undefined>): Map<string, string> {
  const values = new Map<string, string>();
  for (const flag of FLAGS) {
    const value = env[envVarName(flag.name)];
    if (value !== undefined && value !== "") values.set(flag.name, value);
  }
  return values;
}

function envVarName(flagName: string): string {
  return `KUBUN_${flagName.toUpperCase().replaceAll("-", "_")}`;
}

function findFlag(name: string): FlagSpec | undefined {
  return FLAGS.find((flag) => flag.name === name);
}

function parseValue(flag: FlagSpec, text: string): unknown {
  try {
    return flag.type.parse(text);
  } catch (error) {
    throw new FlagError(`invalid argument ${JSON.stringify(text)} for "--${flag.name}" flag: ${(error as Error).message}`);
  }
}

/** Usage text laid out as kube-apiserver's (cobra + pflag): sections, aligned columns, non-zero defaults. */
export function helpText(): string {
  const columns = FLAGS.filter((flag) => !flag.hidden).map((flag) => ({ flag, left: flagColumn(flag) }));
  const width = Math.max(...columns.map((column) => column.left.length));
  const sections = [...new Set(FLAGS.map((flag) => flag.section))].map((section) => {
    const lines = columns
      .filter((column) => column.flag.section === section)
      // pflag's FlagUsages indents a usage's later lines to its column.
      .map(({ flag, left }) =>
        `${left.padEnd(width)}   ${flag.usage.replaceAll("\n", `\n${" ".repeat(width + 3)}`)}${defaultSuffix(flag)}`
      );
    return `${section}:\n\n${lines.join("\n")}\n`;
  });
  return [
    "kubun serves the Kubernetes API (kube-apiserver 1.26) from one process, with its state in SQLite.",
    `Every flag can also be set through the environment as KUBUN_<FLAG_NAME>, e.g. ${envVarName("secure-port")}.`,
    "",
    "Usage:\n  kubun [flags]\n",
    ...sections,
  ].join("\n");
}

function flagColumn(flag: FlagSpec): string {
  const names = flag.shorthand ? `  -${flag.shorthand}, --${flag.name}` : `      --${flag.name}`;
  return flag.type.name ? `${names} ${flag.type.name}` : names;
}

function defaultSuffix(flag: FlagSpec): string {
  const text = (flag.type as FlagType<unknown>).format(flag.defaultValue);
  if (text === "" || text === "false" || text === "0" || text === "0s" || text === "[]") return "";
  return flag.type.name === "string" ? ` (default ${JSON.stringify(text)})` : ` (default ${text})`;
}
