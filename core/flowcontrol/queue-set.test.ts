import { expect, test } from "bun:test";
import { QueueSet } from "./queue-set.ts";
import type { RejectReason, Seat } from "./queue-set-types.ts";

const ONE_SEAT = { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 };
const request = (flowSchema = "fs", distinguisher = "", work = ONE_SEAT) => ({ flowSchema, distinguisher, arrivedAtMs: Date.now(), work });
const wide = (initialSeats: number) => request("fs", "", { initialSeats, finalSeats: 0, additionalLatencyMs: 0 });
const LONG_WAIT = { waitLimitMs: 60_000 };
const isSeat = (outcome: unknown): outcome is Seat => typeof outcome === "object" && outcome !== null && "release" in outcome;

test("a Reject level dispatches up to its limit and then answers concurrency-limit (kube's queueset without queues)", () => {
  const set = new QueueSet(1);
  const first = set.admit(request(), () => 0n, LONG_WAIT);
  expect(isSeat(first)).toBe(true);
  expect(set.admit(request(), () => 0n, LONG_WAIT)).toBe("concurrency-limit");
  (first as Seat).release();
  expect(isSeat(set.admit(request(), () => 0n, LONG_WAIT))).toBe(true);
});

test("a queuing level queues past its limit, rejects queue-full past queueLengthLimit, and dispatches on release", async () => {
  const set = new QueueSet(1, { queues: 1, handSize: 1, queueLengthLimit: 1 });
  const first = set.admit(request(), () => 0n, LONG_WAIT) as Seat;
  const second = set.admit(request(), () => 0n, LONG_WAIT);
  expect(second).toBeInstanceOf(Promise);
  expect(set.admit(request(), () => 0n, LONG_WAIT)).toBe("queue-full");
  expect(set.waiting).toBe(1);
  first.release();
  const admitted = await second;
  expect(isSeat(admitted)).toBe(true);
  expect(set.executing).toBe(1);
});

test("a waiting request is rejected time-out after the wait limit, and cancelled when its client goes away", async () => {
  const set = new QueueSet(1, { queues: 4, handSize: 2, queueLengthLimit: 10 });
  set.admit(request(), () => 0n, LONG_WAIT);
  expect(await set.admit(request(), () => 1n, { waitLimitMs: 1 })).toBe("time-out");
  const abort = new AbortController();
  const waiting = set.admit(request(), () => 2n, LONG_WAIT, abort);
  abort.abort();
  expect(await waiting).toBe("cancelled");
  expect(set.waiting).toBe(0);
});

/**
 * Runs requests of two flows through a one-seat level on a clock the test moves: each request executes for `ms`
 * (kube's estimated 3 ms unless given). Hash 0 deals queue 0 (flow A), hash 1 queue 1 (flow B); the request that
 * holds the seat while they arrive is charged to queue 2. Returns the dispatch order.
 */
async function dispatchOrder(flows: { flow: string; seats: number; ms?: number }[]): Promise<string[]> {
  let now = 0;
  const set = new QueueSet(1, { queues: 3, handSize: 1, queueLengthLimit: 10 }, () => now);
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
  const order: string[] = [];
  const seats: { seat: Seat; ms: number }[] = [];
  seats.push({ seat: set.admit(request(), () => 2n, LONG_WAIT) as Seat, ms: 3 });
  for (const { flow, seats: width, ms = 3 } of flows) {
    const hash = flow.startsWith("A") ? 0n : 1n;
    const work = { initialSeats: width, finalSeats: 0, additionalLatencyMs: 0 };
    void (set.admit(request("fs", flow, work), () => hash, LONG_WAIT) as Promise<Seat | RejectReason>).then((seat) => {
      order.push(flow);
      seats.push({ seat: seat as Seat, ms });
    });
  }
  while (order.length < flows.length) {
    const running = seats.shift()!;
    now += running.ms;
    running.seat.release();
    await tick();
  }
  return order;
}

test("equal requests alternate between flows, so one busy flow does not starve another (kube's fair queuing)", async () => {
  const order = await dispatchOrder([{ flow: "A1", seats: 1 }, { flow: "A2", seats: 1 }, { flow: "A3", seats: 1 }, {
    flow: "B1",
    seats: 1,
  }]);
  expect(order).toEqual(["A1", "B1", "A2", "A3"]);
});

test("the queue whose head finishes first in virtual time goes next: A's 2-seat requests count double against B's 1-seat ones (findDispatchQueueLocked)", async () => {
  // Virtual finish = the queue's next dispatch R + the head's seats × 3 ms (in ms of one seat): B1 3 < A1 6; A1 6
  // ties B2 6 and wins round-robin (B was served last); B2 6 < A2 12; B3 9 < A2 12; then A2 and A3.
  // Round-robin alone would give A1, B1, A2, B2, A3, B3.
  const order = await dispatchOrder([
    { flow: "A1", seats: 2 },
    { flow: "A2", seats: 2 },
    { flow: "A3", seats: 2 },
    { flow: "B1", seats: 1 },
    { flow: "B2", seats: 1 },
    { flow: "B3", seats: 1 },
  ]);
  expect(order).toEqual(["B1", "A1", "B2", "B3", "A2", "A3"]);
});

test("a flow is charged the time its requests really took: after A's 30 ms request B runs three 3 ms ones (finishRequestLocked)", async () => {
  // A1 and B1 tie at 3 and A1 goes first; A1's 27 ms over the estimate move A's next dispatch to 30, so B1, B2 and B3
  // (finishing at 3, 6, 9) go before A2 (33). Equal durations would alternate A and B.
  const order = await dispatchOrder([
    { flow: "A1", seats: 1, ms: 30 },
    { flow: "A2", seats: 1, ms: 30 },
    { flow: "A3", seats: 1, ms: 30 },
    { flow: "B1", seats: 1 },
    { flow: "B2", seats: 1 },
    { flow: "B3", seats: 1 },
  ]);
  expect(order).toEqual(["A1", "B1", "B2", "B3", "A2", "A3"]);
});

test("a request occupies its estimated seats: a 3-seat LIST waits while 2 of 4 seats are taken (kube's canAccommodateSeatsLocked)", async () => {
  const set = new QueueSet(4, { queues: 1, handSize: 1, queueLengthLimit: 10 });
  const first = set.admit(wide(2), () => 0n, LONG_WAIT) as Seat;
  expect(set.seatsInUse).toBe(2);
  const waiting = set.admit(wide(3), () => 0n, LONG_WAIT);
  expect(waiting).toBeInstanceOf(Promise);
  first.release();
  expect(isSeat(await waiting)).toBe(true);
  expect(set.seatsInUse).toBe(3);
});

test("a request wider than the whole limit runs alone once nothing executes, and is not overtaken by narrower ones", async () => {
  const set = new QueueSet(2, { queues: 1, handSize: 1, queueLengthLimit: 10 });
  const holder = set.admit(wide(1), () => 0n, LONG_WAIT) as Seat;
  const widest = set.admit(wide(10), () => 0n, LONG_WAIT) as Promise<Seat | RejectReason>;
  const narrow = set.admit(wide(1), () => 0n, LONG_WAIT);
  expect(narrow).toBeInstanceOf(Promise);
  expect(set.waiting).toBe(2);
  holder.release();
  const seat = await widest;
  expect(isSeat(seat)).toBe(true);
  expect(set.seatsInUse).toBe(10);
  expect(set.waiting).toBe(1);
  (seat as Seat).release();
  expect(isSeat(await narrow)).toBe(true);
});

test("without queues, a request whose seats do not fit is rejected concurrency-limit", () => {
  const set = new QueueSet(3);
  const first = set.admit(wide(2), () => 0n, LONG_WAIT);
  expect(isSeat(first)).toBe(true);
  expect(set.admit(wide(2), () => 0n, LONG_WAIT)).toBe("concurrency-limit");
  expect(isSeat(set.admit(wide(1), () => 0n, LONG_WAIT))).toBe(true);
});

test("final seats for watch events stay taken for the additional latency after the request ends (kube's finishRequestLocked)", async () => {
  const set = new QueueSet(5);
  const series = { concurrencyInUse: { value: 0 }, dispatchNoAccommodation: { value: 0 }, queueLengthAfterEnqueue: { observe() {} } };
  const work = { initialSeats: 1, finalSeats: 3, additionalLatencyMs: 5 };
  const seat = set.admit(request("fs", "", work), () => 0n, { ...LONG_WAIT, series }) as Seat;
  expect(set.seatsInUse).toBe(3);
  seat.release();
  expect(set.executing).toBe(0);
  // kube's AddRequestConcurrencyInUse counts the seats until releaseSeatsLocked, after the additional latency.
  expect([set.seatsInUse, series.concurrencyInUse.value]).toEqual([3, 3]);
  await new Promise((resolve) => setTimeout(resolve, 30));
  expect([set.seatsInUse, series.concurrencyInUse.value]).toEqual([0, 0]);
});

test("a full queue refuses a request only while every seat is taken (kube's rejectOrEnqueueToBoundLocked)", () => {
  const set = new QueueSet(2, { queues: 1, handSize: 1, queueLengthLimit: 1 });
  set.admit(wide(1), () => 0n, LONG_WAIT);
  // Wider than the level: it waits for the running request although a seat is free.
  expect(set.admit(wide(3), () => 0n, LONG_WAIT)).toBeInstanceOf(Promise);
  expect(set.admit(wide(1), () => 0n, LONG_WAIT)).toBeInstanceOf(Promise);
  expect(set.waiting).toBe(2);
  const full = new QueueSet(1, { queues: 1, handSize: 1, queueLengthLimit: 1 });
  full.admit(wide(1), () => 0n, LONG_WAIT);
  full.admit(wide(1), () => 0n, LONG_WAIT);
  expect(full.admit(wide(1), () => 0n, LONG_WAIT)).toBe("queue-full");
});

test("shuffle sharding puts a request in the queue of its hand with the least work waiting, visiting the hand from a rotating offset (shuffleShardLocked)", () => {
  const set = new QueueSet(1, { queues: 2, handSize: 2, queueLengthLimit: 10 });
  // Hash 0 deals the hand [0, 1]; the n-th request visits it from offset n mod 2 and the first least-loaded queue
  // visited wins. 1st: queue 0, dispatched at once (waiting work counts, executing work does not); 2nd: queue 1
  // first, empty; 3rd: queue 0 (nothing waiting) over queue 1 (3 ms of work).
  set.admit(wide(1), () => 0n, LONG_WAIT);
  set.admit(wide(1), () => 0n, LONG_WAIT);
  set.admit(wide(1), () => 0n, LONG_WAIT);
  expect(set.queues().map((queue) => queue.waiting.length)).toEqual([1, 1]);
  // 4th: a tie at one 3 ms request each, queue 1 visited first; 5th: queue 0 (3 ms) beats queue 1 (3 + 15 ms);
  // 6th: queue 0 (6 ms) still beats queue 1.
  set.admit(wide(5), () => 0n, LONG_WAIT);
  set.admit(wide(1), () => 0n, LONG_WAIT);
  set.admit(wide(1), () => 0n, LONG_WAIT);
  expect(set.queues().map((queue) => queue.waiting.map((waiting) => waiting.work.initialSeats))).toEqual([[1, 1, 1], [1, 5]]);
});

test("a request that finds a seat free is charged to its queue, so the flow that just ran waits behind a newcomer (dispatchLocked, finishRequestLocked)", async () => {
  // One seat, flows A (queue 0) and B (queue 1). A1 finds the seat free and runs 3 ms; it is charged to queue 0 as kube
  // charges every dispatched request, so queue 0's next dispatch is at R = 3 ms·seat. A2 queues behind it at once, B1
  // arrives 1 ms later when R = 1 ms·seat (one active queue, one seat wanted). When A1 ends, B1 finishes first in
  // virtual time (1 + 3 = 4 against A2's 3 + 3 = 6). Were A1 not charged, queue 0 would restart at R = 0 for A2
  // (finishing at 3) and A would run again before B.
  let now = 0;
  const set = new QueueSet(1, { queues: 2, handSize: 1, queueLengthLimit: 10 }, () => now);
  const order: string[] = [];
  const a1 = set.admit(request("fs", "A1"), () => 0n, LONG_WAIT);
  expect(isSeat(a1)).toBe(true);
  expect(set.queues().map((queue) => queue.executing)).toEqual([1, 0]);
  const later = (flow: string, hash: bigint) =>
    (set.admit(request("fs", flow), () => hash, LONG_WAIT) as Promise<Seat | RejectReason>).then((seat) => {
      order.push(flow);
      return seat as Seat;
    });
  const a2 = later("A2", 0n);
  now = 1;
  const b1 = later("B1", 1n);
  now = 3;
  (a1 as Seat).release();
  (await b1).release();
  (await a2).release();
  expect(order).toEqual(["B1", "A2"]);
});

test("requests left waiting in queues a reconfiguration dropped are still dispatched (finishQueueSetReconfigsLocked keeps them)", async () => {
  const set = new QueueSet(1, { queues: 4, handSize: 1, queueLengthLimit: 10 });
  const holder = set.admit(request(), () => 0n, LONG_WAIT) as Seat;
  // Hash 3 deals queue 3 of 4; the set then shrinks to one queue while that request waits.
  const waiting = set.admit(request("fs", "late"), () => 3n, LONG_WAIT) as Promise<Seat | RejectReason>;
  set.reconfigure(1, { queues: 1, handSize: 1, queueLengthLimit: 10 });
  expect(set.queues().length).toBe(4);
  holder.release();
  const seat = await waiting;
  expect(isSeat(seat)).toBe(true);
  (seat as Seat).release();
  expect(set.queues().length).toBe(1);
});
