/**
 * kube's etcd compactor (apiserver pkg/storage/etcd3/compact.go, runCompactLoop and compact), so several servers on
 * one etcd compact once per interval between them: the version of the key `compact_rev_key` (outside
 * --etcd-prefix) is a logical clock. Each round a server compares that version with the one it last saw; if they
 * match it puts the revision it saw one round ago (bumping the version) and compacts etcd to it, otherwise it
 * adopts the winner's version and learns the revision the winner compacted to. The first round only takes the
 * clock, so etcd keeps at least one interval of history; a server that stops is replaced within two intervals.
 */
import { logger } from "../../log/mod.ts";
import type { EtcdClient } from "./_client.ts";

const log = logger("etcd-compactor");

export const COMPACT_REV_KEY = "compact_rev_key";

// etcd's Compare enums (rpc.proto).
const EQUAL = 0;
const VERSION = 0;

export interface CompactionTarget {
  /** Compacts etcd to `revision` (etcd's Compact) and notes it as the compacted revision. */
  compact(revision: number): Promise<void>;
  /** Another server compacted to `revision`. */
  noteCompacted(revision: number): void;
}

export interface EtcdCompactor {
  /** One round now (also what the timer does). */
  tick(): Promise<void>;
  stop(): void;
}

export function startEtcdCompactor(client: EtcdClient, target: CompactionTarget, intervalMs: number): EtcdCompactor {
  const key = new TextEncoder().encode(COMPACT_REV_KEY);
  let compactTime = 0;
  let revision = 0;
  let running: Promise<void> | undefined;

  async function round(): Promise<void> {
    const response = await client.txn({
      compare: [{ result: EQUAL, target: VERSION, key, version: compactTime }],
      success: [{ requestPut: { key, value: new TextEncoder().encode(String(revision)) } }],
      failure: [{ requestRange: { key } }],
    });
    const currentRevision = response.header.revision;
    if (!response.succeeded) {
      const kv = response.responses[0]?.responseRange?.kvs[0];
      compactTime = kv?.version ?? 0;
      const compacted = Number.parseInt(new TextDecoder().decode(kv?.value ?? new Uint8Array()), 10);
      if (compacted > 0) target.noteCompacted(compacted);
      revision = currentRevision;
      return;
    }
    compactTime += 1;
    const toCompact = revision;
    revision = currentRevision;
    // No compaction on the first round, as kube's: there is no revision one interval old yet.
    if (toCompact !== 0) {
      await target.compact(toCompact);
      log.v(4).info(`etcd: compacted rev (${toCompact})`);
    }
  }

  const tick = () => {
    running ??= round()
      .catch((error) => log.error("etcd compaction failed", error))
      .finally(() => (running = undefined));
    return running;
  };
  const timer = setInterval(tick, intervalMs);
  (timer as { unref?: () => void }).unref?.();
  return { tick, stop: () => clearInterval(timer) };
}
