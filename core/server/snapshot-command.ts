/**
 * `kubun snapshot save|status|restore`: online snapshots of the data directory's database, shaped after
 * `etcdctl snapshot save` and `etcdutl snapshot status|restore` (simple or json output, `--bump-revision`).
 */
import { chmodSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_REVISION_BUMP, restoreSnapshot, saveSnapshot, type SnapshotStatus, snapshotStatus } from "../storage/sqlite/mod.ts";
import { FlagError } from "./flags.ts";

export const SNAPSHOT_USAGE = `Take, inspect and restore snapshots of kubun's database while the server runs.

Usage:
  kubun snapshot save FILE [--data-dir DIR]
  kubun snapshot status FILE [-w simple|json]
  kubun snapshot restore FILE --data-dir NEW_DIR [--bump-revision N]

Flags:
      --bump-revision int   How far the restored store's revision moves past the snapshot's, so no resourceVersion
                            is handed out twice; everything before is marked compacted (default ${DEFAULT_REVISION_BUMP})
      --data-dir string     Data directory: the one to snapshot (default: the server's --data-dir), or a new one to restore into
  -h, --help                help for snapshot
  -w, --write-out string    Output of status: simple or json (default "simple")
`;

interface SnapshotArgs {
  action: "save" | "status" | "restore" | "help";
  file: string;
  dataDir: string;
  dataDirGiven: boolean;
  bump: number;
  output: "simple" | "json";
}

export function parseSnapshotArgs(argv: string[], defaultDataDir: string): SnapshotArgs {
  const args: SnapshotArgs = {
    action: "help",
    file: "",
    dataDir: defaultDataDir,
    dataDirGiven: false,
    bump: DEFAULT_REVISION_BUMP,
    output: "simple",
  };
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "-h" || arg === "--help") return { ...args, action: "help" };
    const match = /^(?:--([a-z-]+)|-(w))(?:=(.*))?$/s.exec(arg);
    if (!match) {
      positional.push(arg);
      continue;
    }
    const name = match[1] ?? "write-out";
    const value = match[3] ?? argv[++i];
    if (value === undefined) throw new FlagError(`flag needs an argument: ${arg}`);
    if (name === "data-dir") Object.assign(args, { dataDir: value, dataDirGiven: true });
    else if (name === "bump-revision") {
      if (!/^[0-9]+$/.test(value)) {
        throw new FlagError(`invalid argument "${value}" for "--bump-revision" flag: must be a non-negative integer`);
      }
      args.bump = Number(value);
    } else if (name === "write-out") {
      if (value !== "simple" && value !== "json") throw new FlagError(`unsupported output format "${value}"; use simple or json`);
      args.output = value;
    } else throw new FlagError(`unknown flag: --${name}`);
  }
  const [action, file, ...rest] = positional;
  if (action === undefined) return args;
  if (action !== "save" && action !== "status" && action !== "restore") {
    throw new FlagError(`unknown command "${action}" for "kubun snapshot"`);
  }
  if (file === undefined || rest.length > 0) throw new FlagError(`"kubun snapshot ${action}" takes exactly one file argument`);
  if (action === "restore" && !args.dataDirGiven) throw new FlagError('required flag(s) "data-dir" not set');
  return { ...args, action, file };
}

function describe(status: SnapshotStatus, output: "simple" | "json"): string {
  if (output === "json") return `${JSON.stringify(status)}\n`;
  return `${status.hash.slice(0, 8)}, ${status.revision}, ${status.keys}, ${status.size} B\n`;
}

/** Runs the sub-command; returns what to print. */
export async function runSnapshotCommand(args: SnapshotArgs): Promise<string> {
  switch (args.action) {
    case "help":
      return SNAPSHOT_USAGE;
    case "save": {
      const status = await saveSnapshot(join(args.dataDir, "kubun.db"), args.file);
      return `Snapshot saved at ${args.file} (revision ${status.revision}, ${status.keys} keys)\n`;
    }
    case "status":
      return describe(snapshotStatus(args.file), args.output);
    case "restore": {
      mkdirSync(args.dataDir, { recursive: true, mode: 0o700 });
      chmodSync(args.dataDir, 0o700);
      const status = restoreSnapshot(args.file, join(args.dataDir, "kubun.db"), args.bump);
      return `Restored ${args.file} into ${args.dataDir}: ${status.keys} keys, revision ${status.revision}\n`;
    }
  }
}
