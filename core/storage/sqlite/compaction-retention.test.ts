import { expect, test } from "bun:test";
import type { KeyValue, StorageEvent, WriteOp } from "../storage.ts";
import { seededRandom } from "../contract-suite.ts";
import { openSqliteStorage } from "./mod.ts";

function randomOp(random: () => number, model: Map<string, KeyValue>, step: number): WriteOp {
  const key = `/r/${Math.floor(random() * 12)}`;
  if (!model.has(key)) return { op: "create", key, value: `v${step}` };
  return random() < 0.7 ? { op: "update", key, value: `v${step}`, expectedRevision: 0 } : { op: "delete", key, expectedRevision: 0 };
}

const sorted = (model: Map<string, KeyValue>) => [...model.values()].sort((x, y) => (x.key < y.key ? -1 : 1));

// History keeps each value once; compaction must keep every row a read at or above the compacted revision, or an
// event after it, still refers to (etcd's compaction keeps each key's latest revision at or below the mark).
test("after each compaction, reads at every kept revision and every kept event's previous value stay exact", async () => {
  const storage = openSqliteStorage(":memory:");
  const random = seededRandom(7);
  const model = new Map<string, KeyValue>();
  const states = new Map<number, KeyValue[]>([[0, []]]);
  const events: StorageEvent[] = [];
  storage.subscribe((event) => events.push(event));
  for (let step = 0; step < 600; step++) {
    const op = randomOp(random, model, step);
    const kv = await storage.write(op);
    if (op.op === "delete") model.delete(op.key);
    else model.set(op.key, kv);
    states.set(kv.modRevision, sorted(model));
    if (step % 50 === 49) {
      await storage.compact(kv.modRevision - Math.floor(random() * 40));
      const compacted = storage.compactedRevision();
      for (let revision = compacted; revision <= storage.currentRevision(); revision++) {
        expect((await storage.range("/r/", { revision })).items).toEqual(states.get(revision)!);
        for (const kept of model.keys()) {
          expect(await storage.get(kept, revision)).toEqual(states.get(revision)!.find((x) => x.key === kept) ?? null);
        }
      }
      expect(await storage.eventsSince("/r/", compacted)).toEqual(events.filter((event) => event.revision > compacted));
    }
  }
  await storage.close();
});
