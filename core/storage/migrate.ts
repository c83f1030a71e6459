/**
 * Copies every key of one store into an empty other store, as read at one revision of the source, so the copy is
 * consistent while the source keeps serving writes (the same idea as `etcdctl snapshot` + restore, but between
 * backends). Values travel as kubun's JSON text, so uids, creation timestamps, generations and managedFields are
 * kept; resourceVersions are the target's own revisions and necessarily change.
 */
import type { KeyValue, Storage } from "./storage.ts";

export interface CopyOptions {
  /** Keys read per range call. */
  pageSize?: number;
  /** Creates in flight at once (a SQLite target commits them in groups). */
  concurrency?: number;
  onProgress?: (copied: number) => void;
}

export interface CopyResult {
  /** The source revision the copy was read at. */
  revision: number;
  keys: number;
}

export class TargetNotEmptyError extends Error {
  constructor(keys: number) {
    super(`the target store already holds ${keys} keys; migrate into an empty store`);
    this.name = "TargetNotEmptyError";
  }
}

/** Every key of the store: the registry lays keys out as `/<group>/<resource>/...`. */
const ALL_KEYS = "/";

export async function copyStore(source: Storage, target: Storage, options: CopyOptions = {}): Promise<CopyResult> {
  const pageSize = options.pageSize ?? 500;
  const concurrency = options.concurrency ?? 64;
  const revision = source.currentRevision();
  const existing = await target.count(ALL_KEYS);
  if (existing > 0) throw new TargetNotEmptyError(existing);
  let copied = 0;
  let startAfter: string | undefined;
  for (;;) {
    const page = await source.range(ALL_KEYS, { revision, startAfter, limit: pageSize, skipRemaining: true });
    for (let i = 0; i < page.items.length; i += concurrency) {
      await Promise.all(
        page.items.slice(i, i + concurrency).map((kv: KeyValue) => target.write({ op: "create", key: kv.key, value: kv.value })),
      );
    }
    copied += page.items.length;
    options.onProgress?.(copied);
    if (page.items.length < pageSize) break;
    startAfter = page.items[page.items.length - 1]!.key;
  }
  return { revision, keys: copied };
}
