/**
 * Opens the store the flags name: etcd when --etcd-servers is set (kube's etcd3 store, which applies encryption at
 * rest itself, after the value encoding, and compacts on --etcd-compaction-interval with kube's compactor), else
 * SQLite in --data-dir (held by this process alone unless --data-dir-shared; wrapped by encryption at rest, compacted to keep --watch-cache-history, snapshotted on
 * schedule). The etcd flags are checked as kube's EtcdOptions.Validate checks them. Each --etcd-servers-overrides
 * store is an etcd store of its own (its client, revision sequence, compactor), with the same prefix, TLS files,
 * encoding and encryption, as kube's storage factory gives every overridden resource; a RoutedStorage puts them
 * behind one Storage.
 */
import { join } from "node:path";
import type { ServerConfig } from "../config/mod.ts";
import { collectionPrefix } from "../registry/keys.ts";
import { startCompactor } from "../storage/compactor.ts";
import { encryptingStorage, type EncryptionConfigSource } from "../storage/encryption/mod.ts";
import { RoutedStorage, type StorageRoute } from "../storage/routed-storage.ts";
import { scheduleSnapshots, type SqliteStorageOptions } from "../storage/sqlite/mod.ts";
import type { Storage } from "../storage/storage.ts";
import { openDataDirStore } from "./data-dir.ts";

export interface StorageBackend {
  storage: Storage;
  /** No other process writes the store (SQLite held in exclusive locking mode; not etcd, not --data-dir-shared). */
  soleWriter: boolean;
  /**
   * Stops the background work beside the store (compaction, snapshots), resolving once a snapshot in progress is
   * done; the store itself closes with storage.close().
   */
  stop(): Promise<void>;
  /** The process is idle after a burst: the store gives back the memory it keeps only to be faster. */
  releaseMemory(): void;
}

const STORAGE_MEDIA_TYPES = ["application/json", "application/vnd.kubernetes.protobuf", "application/yaml"];
const OVERRIDE_FORMAT =
  "--etcd-servers-overrides invalid, must be of format: group/resource#servers, where servers are URLs, semicolon separated";

/**
 * The key prefixes SQLite stores deflated (core/storage/sqlite/stored-value.ts), in the server and in what `kubun
 * migrate` writes: the Leases, which kubelets, the apiserver identity and leader election rewrite every few seconds
 * forever and which are read rarely, so that a tick's renewals share a history page. Everything else stays text,
 * which a read hands on as it is.
 */
export const SQLITE_DEFLATED_KEY_PREFIXES: readonly string[] = [
  collectionPrefix({ group: "coordination.k8s.io", resource: "leases", namespaced: true }, ""),
];

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
  // kube's Validate requires --etcd-servers outright; kubun asks for it when etcd is asked for.
  if (config.etcdServersOverrides.length > 0 && config.etcdServers.length === 0) throw new Error("--etcd-servers must be specified");
}

export async function openStorageBackend(
  config: ServerConfig,
  encryption: EncryptionConfigSource | undefined,
  log: (line: string) => void,
  sqliteOptions: Pick<SqliteStorageOptions, "onCommit"> = {},
): Promise<StorageBackend> {
  if (config.etcdServers.length > 0) {
    return {
      storage: await openEtcdStores(config, encryption),
      soleWriter: false,
      stop: () => Promise.resolve(),
      releaseMemory: () => {},
    };
  }
  // One process per data directory unless asked otherwise: no shared wal-index to write back (README "Storage format and flash writes").
  const { path: databasePath, storage: sqlite } = await openDataDirStore(config.dataDir, {
    synchronous: config.storageSync,
    exclusive: !config.dataDirShared,
    compressedKeyPrefixes: SQLITE_DEFLATED_KEY_PREFIXES,
    ...sqliteOptions,
  });
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
    soleWriter: !config.dataDirShared,
    stop: () => {
      compactor.stop();
      return snapshots.stop();
    },
    releaseMemory: () => sqlite.releaseMemory(),
  };
}

/** How to reach and lay out an etcd store, as the server's etcd flags say. */
export type EtcdStoreSettings = Pick<ServerConfig, "etcdPrefix" | "etcdCafile" | "etcdCertfile" | "etcdKeyfile" | "storageMediaType">;

/** One etcd store in kube's layout. Imported here: the etcd client (@grpc/grpc-js) and kube's storage layout cost every SQLite server start time and heap. */
export async function openEtcdStore(
  settings: EtcdStoreSettings,
  servers: readonly string[],
  compactionIntervalMs: number,
  encryption: EncryptionConfigSource | undefined,
): Promise<Storage> {
  const [{ openEtcdStorage }, { storageLayoutFor }] = await Promise.all([
    import("../storage/etcd/mod.ts"),
    import("./storage-layout.ts"),
  ]);
  // kube's etcd3 store encrypts after encoding, so the providers go to the store, not around it.
  return await openEtcdStorage({
    servers,
    prefix: settings.etcdPrefix,
    caFile: settings.etcdCafile,
    certFile: settings.etcdCertfile,
    keyFile: settings.etcdKeyfile,
    compactionIntervalMs,
    encryption,
    ...storageLayoutFor(settings),
  });
}

/** The main etcd store and one per distinct server list of --etcd-servers-overrides, routed by key. */
async function openEtcdStores(config: ServerConfig, encryption: EncryptionConfigSource | undefined): Promise<Storage> {
  const { etcdOverrideStores } = await import("../storage/kube-layout/mod.ts");
  const open = (servers: readonly string[], storeEncryption: EncryptionConfigSource | undefined) =>
    openEtcdStore(config, servers, config.etcdCompactionIntervalMs, storeEncryption);
  const main = await open(config.etcdServers, encryption);
  const overrides = etcdOverrideStores(config.etcdServersOverrides, config.etcdServers);
  if (overrides.length === 0) return main;
  const opened: Storage[] = [main];
  try {
    const routes: StorageRoute[] = [];
    for (const override of overrides) {
      // The main store owns the providers and stops them; the others share them.
      const storage = await open(override.servers, encryption && sharedEncryption(encryption));
      opened.push(storage);
      routes.push(...override.prefixes.map((prefix) => ({ prefix, storage })));
    }
    return new RoutedStorage(main, routes);
  } catch (error) {
    await Promise.all(opened.map((storage) => storage.close()));
    throw error;
  }
}

/** Encryption providers a second store uses without owning them: only their owner's close() stops them. */
export function sharedEncryption(source: EncryptionConfigSource): EncryptionConfigSource {
  return { current: () => source.current(), healthChecks: () => source.healthChecks(), stop: () => {} };
}
