/** The etcd v3 storage backend (--etcd-servers): kube's etcd3 store semantics over a KeyLayout and ValueCodec. */
import { readFile } from "node:fs/promises";
import type { EncryptionConfigSource } from "../encryption/mod.ts";
import type { KeyLayout, ValueCodec } from "../layout.ts";
import type { Storage } from "../storage.ts";
import { EtcdClient } from "./_client.ts";
import { StoredValues } from "./_stored-values.ts";
import { COMPACT_REV_KEY, startEtcdCompactor } from "./compactor.ts";
import { EtcdStorage, type EtcdStorageOptions } from "./etcd-storage.ts";

export { EtcdStorage } from "./etcd-storage.ts";

export interface EtcdStorageConfig extends EtcdStorageOptions {
  /** --etcd-servers: `http(s)://host:port` URLs. */
  servers: readonly string[];
  /** --etcd-prefix. */
  prefix: string;
  /** --etcd-cafile, --etcd-certfile, --etcd-keyfile paths ("" = none). */
  caFile?: string;
  certFile?: string;
  keyFile?: string;
  /** --etcd-compaction-interval; 0 turns this server's compaction off. */
  compactionIntervalMs: number;
  layout: KeyLayout;
  codec: ValueCodec;
  /** --encryption-provider-config's providers, applied after the codec as kube's store does. */
  encryption?: EncryptionConfigSource;
  /** Deadline of each etcd call; default 15 s. */
  callTimeoutMs?: number;
}

const readOptional = async (path: string | undefined) => (path ? new Uint8Array(await readFile(path)) : undefined);

/** Connects, reads the current and compacted revisions, and starts the store watch and (unless 0) the compactor. */
export async function openEtcdStorage(config: EtcdStorageConfig): Promise<Storage> {
  const tls = { ca: await readOptional(config.caFile), cert: await readOptional(config.certFile), key: await readOptional(config.keyFile) };
  const client = new EtcdClient({ endpoints: config.servers, tls, callTimeoutMs: config.callTimeoutMs });
  const values = new StoredValues(config.prefix, config.layout, config.codec, config.encryption);
  try {
    const store = values.storeRange();
    const [head, compactRev] = await Promise.all([
      client.range({ ...store, countOnly: true }),
      client.range({ key: new TextEncoder().encode(COMPACT_REV_KEY) }),
    ]);
    const compacted = Number.parseInt(new TextDecoder().decode(compactRev.kvs[0]?.value ?? new Uint8Array()), 10) || 0;
    const storage = new EtcdStorage(client, values, { revision: head.header.revision, compacted }, config);
    // Like the SQLite path's encryptingStorage, the store owns the providers (KMS connections, the reload loop).
    if (config.encryption) storage.onClose(() => config.encryption!.stop());
    if (config.compactionIntervalMs > 0) {
      const compactor = startEtcdCompactor(client, storage, config.compactionIntervalMs);
      storage.onClose(() => compactor.stop());
    }
    return storage;
  } catch (error) {
    client.close();
    throw new Error(`etcd ${config.servers.join(",")}: ${(error as Error).message}`, { cause: error });
  }
}
