/**
 * Opens the store the flags name: etcd when --etcd-servers is set (kube's etcd3 store, which applies encryption at
 * rest itself, after the value encoding, and compacts on --etcd-compaction-interval with kube's compactor), else
 * SQLite in --data-dir (wrapped by encryption at rest, compacted to keep --watch-cache-history, snapshotted on
 * schedule). The etcd flags are checked as kube's EtcdOptions.Validate checks them.
 */
import { join } from "node:path";
import type { ServerConfig } from "../config/mod.ts";
import { startCompactor } from "../storage/compactor.ts";
import { encryptingStorage, type EncryptionConfigSource } from "../storage/encryption/mod.ts";
import { openSqliteStorage, scheduleSnapshots, type SqliteStorageOptions } from "../storage/sqlite/mod.ts";
import type { Storage } from "../storage/storage.ts";
import { makeDatabaseFilesPrivate } from "./data-dir.ts";

export interface StorageBackend {
  storage: Storage;
  /** Stops the background work beside the store (compaction, snapshots); the store itself closes with storage.close(). */
  stop(): void;
}

const STORAGE_MEDIA_TYPES = ["application/json", "application/vnd.kubernetes.protobuf", "application/yaml"];
const OVERRIDE_FORMAT =
  "--etcd-servers-overrides invalid, must be of format: group/resource#servers, where servers are URLs, semicolon separated";

/** kube's EtcdOptions.Validate for the etcd flags kubun has: each message as kube words it. */
export function checkEtcdFlags(config: ServerConfig): void {
  for (const override of config.etcdServersOverrides) {
    const tokens = override.split("#");
    if (tokens.length !== 2 || tokens[0]!.split("/").length !== 2) throw new Error(OVERRIDE_FORMAT);
  }
  if (config.storageMediaType !== "" && !STORAGE_MEDIA_TYPES.includes(config.storageMediaType)) {
    throw new Error(
      `--storage-media-type ${JSON.stringify(config.storageMediaType)} invalid, allowed values: ${STORAGE_MEDIA_TYPES.join(", ")}`,
    );
  }
  if (config.etcdServersOverrides.length > 0) {
    // One revision sequence serves every watch here; resources on another etcd would bring a second one.
    throw new Error("--etcd-servers-overrides: kubun keeps every resource on --etcd-servers");
  }
}

export async function openStorageBackend(
  config: ServerConfig,
  encryption: EncryptionConfigSource | undefined,
  log: (line: string) => void,
  sqliteOptions: Pick<SqliteStorageOptions, "onCommit"> = {},
): Promise<StorageBackend> {
  if (config.etcdServers.length > 0) {
    // Imported here: the etcd client (@grpc/grpc-js) and kube's storage layout cost every SQLite server start time and heap.
    const [{ openEtcdStorage }, { storageLayoutFor }] = await Promise.all([
      import("../storage/etcd/mod.ts"),
      import("./storage-layout.ts"),
    ]);
    const storage = await openEtcdStorage({
      servers: config.etcdServers,
      prefix: config.etcdPrefix,
      caFile: config.etcdCafile,
      certFile: config.etcdCertfile,
      keyFile: config.etcdKeyfile,
      compactionIntervalMs: config.etcdCompactionIntervalMs,
      encryption,
      ...storageLayoutFor(config),
    });
    return { storage, stop: () => {} };
  }
  const databasePath = await makeDatabaseFilesPrivate(config.dataDir);
  const sqlite = openSqliteStorage(databasePath, { synchronous: config.storageSync, ...sqliteOptions });
  const storage = encryption ? encryptingStorage(sqlite, encryption) : sqlite;
  const compactor = startCompactor(storage, { historyMs: config.watchCacheHistoryMs });
  const snapshots = scheduleSnapshots(databasePath, {
    schedule: config.snapshotScheduleCron,
    retention: config.snapshotRetention,
    dir: config.snapshotDir || join(config.dataDir, "snapshots"),
    log,
  });
  return {
    storage,
    stop: () => {
      compactor.stop();
      snapshots.stop();
    },
  };
}
