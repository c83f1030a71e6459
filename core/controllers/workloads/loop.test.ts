import { expect, test } from "bun:test";
import type { LostHistory } from "../../storage/storage.ts";
import { startLoop } from "./loop.ts";

test("a control loop runs a pass at once when watch history was lost, since the lost events may have been changes it acts on", async () => {
  const onLost: ((lost: LostHistory) => void)[] = [];
  const changes = {
    follow: (_prefix: string, _listener: unknown, lost?: (lost: LostHistory) => void) => {
      if (lost) onLost.push(lost);
      return () => {};
    },
  };
  let passes = 0;
  const loop = startLoop(changes, () => Promise.resolve(void passes++), { name: "test", prefixes: ["/things/"], resyncMs: 3_600_000 });
  try {
    await loop.settled();
    expect(passes).toBe(1);
    for (const tell of onLost) tell({ from: 5, to: 9 });
    await loop.settled();
    expect(passes).toBe(2);
  } finally {
    loop.stop();
  }
});
