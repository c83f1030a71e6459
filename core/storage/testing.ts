/** Test kit: storage on which another writer's write lands between a reader's read and its write. */
import type { KeyValue, Storage, WriteOp } from "./storage.ts";

export interface RacingStorage extends Storage {
  /**
   * The next update of `key` first awaits `interleave` (another writer's write of the same key), so the update,
   * made against the revision read before, meets a conflict.
   */
  raceNextUpdate(key: string, interleave: () => Promise<unknown>): void;
  /** Updates of `key` sent so far, the conflicting ones included. */
  updatesOf(key: string): number;
}

export function racingStorage(storage: Storage): RacingStorage {
  const races = new Map<string, () => Promise<unknown>>();
  const updates = new Map<string, number>();
  const write = async (op: WriteOp): Promise<KeyValue> => {
    if (op.op === "update") {
      updates.set(op.key, (updates.get(op.key) ?? 0) + 1);
      const interleave = races.get(op.key);
      // Taken before it runs: the interleaved write is itself an update of the key.
      races.delete(op.key);
      if (interleave) await interleave();
    }
    return await storage.write(op);
  };
  const extra = {
    write,
    raceNextUpdate: (key: string, interleave: () => Promise<unknown>) => races.set(key, interleave),
    updatesOf: (key: string) => updates.get(key) ?? 0,
  };
  return new Proxy(storage, {
    get(target, prop) {
      if (prop in extra) return extra[prop as keyof typeof extra];
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  }) as RacingStorage;
}
