/**
 * The one eviction rule of kubun's bounded memories (caches, remembered answers, LRU buckets): a Map or Set keeps
 * its keys in insertion order, so after an insertion the first keys are the oldest, or the least recently used
 * where a hit re-inserts its key, and they go first.
 */
export function forgetOldest(remembered: Map<unknown, unknown> | Set<unknown>, limit: number): void {
  while (remembered.size > limit) remembered.delete(remembered.keys().next().value);
}
