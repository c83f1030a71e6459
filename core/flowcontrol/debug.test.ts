import { expect, test } from "bun:test";
import { dumpPriorityLevels, tabulate } from "./debug.ts";
import { QueueSet } from "./queue-set.ts";
import { seatSecondsText } from "./seat-seconds.ts";

test("tabulate lays cells out as Go's tabwriter(minwidth 8, padding 1) does kube's ',\\t'-joined rows", () => {
  expect(tabulate([["a", "bb"], ["cccccccccc", "d"]])).toBe("a,          bb\ncccccccccc, d\n");
  expect(tabulate([["x", "y", "z"]])).toBe("x,      y,      z\n");
});

test("dump_priority_levels: <none> for the exempt level, counts for a queuing one (kube's dumpPriorityLevels)", () => {
  const queues = new QueueSet(1, { queues: 2, handSize: 1, queueLengthLimit: 5 });
  queues.admit(
    { flowSchema: "fs", distinguisher: "", arrivedAtMs: Date.now(), work: { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 } },
    () => 0n,
    { waitLimitMs: 60_000 },
  );
  const rows = dumpPriorityLevels([{ name: "exempt", queues: undefined }, { name: "busy", queues }]).split("\n").map((line) =>
    line.split(/,\s*/)
  );
  expect(rows[0]).toEqual(["PriorityLevelName", "ActiveQueues", "IsIdle", "IsQuiescing", "WaitingRequests", "ExecutingRequests"]);
  expect(rows[1]).toEqual(["exempt", "<none>", "<none>", "<none>", "<none>", "<none>"]);
  expect(rows[2]).toEqual(["busy", "0", "false", "false", "0", "1"]);
});

test('SeatSeconds print as kube\'s SeatSeconds.String(): seconds with eight decimals and "ss"', () => {
  expect(seatSecondsText(0)).toBe("0.00000000ss");
  expect(seatSecondsText(300_000)).toBe("0.00300000ss");
  expect(seatSecondsText(1_250_000_000)).toBe("12.50000000ss");
});
