/**
 * `kubun migrate --from sqlite:DIR|etcd:URLS --to sqlite:DIR|etcd:URLS`: copies a store into an empty one at one
 * revision of the source, which may keep serving meanwhile (core/storage/migrate.ts): a SQLite source is read from a
 * copy of its files taken without a lock, since a serving kubun holds its database exclusively (live-copy.ts). The
 * copy is made in the source's data directory, private like it and on its filesystem; copies an interrupted migrate
 * left there are removed first. Encrypted resources are read
 * and written through the same --encryption-provider-config, so they stay encrypted on both sides.
 */
import { existsSync } from "node:fs";
import { chmod, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { type CopyResult, copyStore } from "../storage/migrate.ts";
import type { Storage } from "../storage/storage.ts";
import { openSqliteStorage, removeStaleCopies, withLiveCopy } from "../storage/sqlite/mod.ts";
import { encryptingStorage, type EncryptionConfigSource, encryptionConfigSource } from "../storage/encryption/mod.ts";
import { DATABASE_FILE, openDataDirStore } from "./data-dir.ts";
import { FlagError } from "./flags.ts";
import { type EtcdStoreSettings, openEtcdStore, sharedEncryption, SQLITE_DEFLATED_KEY_PREFIXES } from "./storage-backend.ts";

export const MIGRATE_USAGE = `Copy every object of one store into an empty other store, at one revision of the source.

Usage:
  kubun migrate --from STORE --to STORE [flags]

Stores:
  sqlite:DIR     the kubun.db of a data directory (the source may be in use by a running server)
  etcd:URLS      etcd servers (comma-separated), in kube-apiserver's key layout and storage encoding

Flags:
      --encryption-provider-config string   The EncryptionConfiguration both stores' encrypted resources use
      --etcd-cafile string                  SSL Certificate Authority file used to secure etcd communication.
      --etcd-certfile string                SSL certification file used to secure etcd communication.
      --etcd-keyfile string                 SSL key file used to secure etcd communication.
      --etcd-prefix string                  The prefix to prepend to all resource paths in etcd. (default "/registry")
      --from string                         The store to read
  -h, --help                                help for migrate
      --storage-media-type string           The media type objects are written to etcd in. (default "application/vnd.kubernetes.protobuf")
      --to string                           The empty store to write

Objects keep their uids, creation timestamps, generations and managedFields; resourceVersions are the target's own,
so clients relist after the switch (a watch from an old resourceVersion ends with 410 Gone or "too large resource
version", and client-go's reflectors relist on either).
`;

export type StoreSpec = { kind: "sqlite"; dir: string } | { kind: "etcd"; servers: string[] };

export interface MigrateArgs {
  help: boolean;
  from?: StoreSpec;
  to?: StoreSpec;
  encryptionProviderConfig: string;
  etcd: EtcdStoreSettings;
}

const ETCD_SETTINGS: Record<string, keyof EtcdStoreSettings> = {
  "etcd-prefix": "etcdPrefix",
  "etcd-cafile": "etcdCafile",
  "etcd-certfile": "etcdCertfile",
  "etcd-keyfile": "etcdKeyfile",
  "storage-media-type": "storageMediaType",
};

export function parseStoreSpec(flag: string, text: string): StoreSpec {
  const colon = text.indexOf(":");
  const scheme = colon < 0 ? "" : text.slice(0, colon);
  const location = text.slice(colon + 1);
  if (scheme === "sqlite" && location !== "") return { kind: "sqlite", dir: location };
  const servers = location.split(",").filter(Boolean);
  if (scheme === "etcd" && servers.length > 0) return { kind: "etcd", servers };
  throw new FlagError(`invalid argument "${text}" for "--${flag}" flag: want sqlite:DIR or etcd:URLS`);
}

export function parseMigrateArgs(argv: string[]): MigrateArgs {
  const args: MigrateArgs = {
    help: argv.length === 0,
    encryptionProviderConfig: "",
    etcd: {
      etcdPrefix: "/registry",
      etcdCafile: "",
      etcdCertfile: "",
      etcdKeyfile: "",
      storageMediaType: "application/vnd.kubernetes.protobuf",
    },
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "-h" || arg === "--help") return { ...args, help: true };
    const match = /^--([a-z-]+)(?:=(.*))?$/s.exec(arg);
    if (!match) throw new FlagError(`unexpected argument "${arg}" for "kubun migrate"`);
    const value = match[2] ?? argv[++i];
    if (value === undefined) throw new FlagError(`flag needs an argument: ${arg}`);
    if (match[1] === "from") args.from = parseStoreSpec("from", value);
    else if (match[1] === "to") args.to = parseStoreSpec("to", value);
    else if (match[1] === "encryption-provider-config") args.encryptionProviderConfig = value;
    else if (match[1]! in ETCD_SETTINGS) args.etcd[ETCD_SETTINGS[match[1]!]!] = value;
    else throw new FlagError(`unknown flag: --${match[1]}`);
  }
  if (!args.help && (!args.from || !args.to)) throw new FlagError('required flag(s) "from", "to" not set');
  return args;
}

/** The store to write: empty, checked by copyStore. */
async function openTarget(spec: StoreSpec, encryption: EncryptionConfigSource | undefined, etcd: EtcdStoreSettings): Promise<Storage> {
  if (spec.kind === "etcd") return await openEtcdStore(etcd, spec.servers, 0, encryption);
  await mkdir(spec.dir, { recursive: true, mode: 0o700 });
  await chmod(spec.dir, 0o700);
  return withEncryption((await openDataDirStore(spec.dir, { compressedKeyPrefixes: SQLITE_DEFLATED_KEY_PREFIXES })).storage, encryption);
}

function withEncryption(store: Storage, encryption: EncryptionConfigSource | undefined): Storage {
  return encryption ? encryptingStorage(store, encryption) : store;
}

function describeSpec(spec: StoreSpec): string {
  return spec.kind === "sqlite" ? `sqlite:${spec.dir}` : `etcd:${spec.servers.join(",")}`;
}

/** Runs the copy; returns what to print. */
export async function runMigrateCommand(args: MigrateArgs, log: (line: string) => void): Promise<string> {
  if (args.help || !args.from || !args.to) return MIGRATE_USAGE;
  const encryption = args.encryptionProviderConfig
    ? await encryptionConfigSource(args.encryptionProviderConfig, { reload: false, log })
    : undefined;
  // The source owns the providers and stops them when it closes; the target only uses them.
  const to = args.to;
  const copyFrom = async (source: Storage): Promise<CopyResult> => {
    try {
      const target = await openTarget(to, encryption && sharedEncryption(encryption), args.etcd);
      try {
        return await copyStore(source, target);
      } finally {
        await target.close();
      }
    } finally {
      await source.close();
    }
  };
  const from = args.from;
  let result: CopyResult;
  if (from.kind === "etcd") result = await copyFrom(await openEtcdStore(args.etcd, from.servers, 0, encryption));
  else {
    const database = join(from.dir, DATABASE_FILE);
    if (!existsSync(database)) throw new FlagError(`no kubun database in ${from.dir}`);
    removeStaleCopies(from.dir);
    result = await withLiveCopy(database, from.dir, (copy) => copyFrom(withEncryption(openSqliteStorage(copy), encryption)));
  }
  return `Migrated ${result.keys} keys at revision ${result.revision} from ${describeSpec(args.from)} to ${describeSpec(args.to)}\n`;
}
