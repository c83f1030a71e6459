import { expect, test } from "bun:test";
import { QueueSet, type RejectReason, type Seat } from "./queue-set.ts";

const ONE_SEAT = { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 };
const request = (flowSchema = "fs", distinguisher = "", work = ONE_SEAT) => ({ flowSchema, distinguisher, arrivedAt: new Date(), work });
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
  const waiting = set.admit(request(), () => 2n, { waitLimitMs: 60_000, signal: () => abort.signal });
  abort.abort();
  expect(await waiting).toBe("cancelled");
  expect(set.waiting).toBe(0);
});

test("freed seats go round-robin over the queues, so one busy flow does not starve another (fair queuing)", async () => {
  const set = new QueueSet(1, { queues: 2, handSize: 1, queueLengthLimit: 10 });
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
  const order: string[] = [];
  const seats: Seat[] = [];
  const holder = set.admit(request(), () => 0n, LONG_WAIT) as Seat;
  // Hash 0 deals queue 0, hash 1 queue 1: three requests of flow A queue before the one of flow B.
  for (const [flow, hash] of [["A", 0n], ["A", 0n], ["A", 0n], ["B", 1n]] as const) {
    void (set.admit(request("fs", flow), () => hash, LONG_WAIT) as Promise<Seat | RejectReason>).then((seat) => {
      order.push(flow);
      seats.push(seat as Seat);
    });
  }
  holder.release();
  await tick();
  while (order.length < 4) {
    seats.shift()!.release();
    await tick();
  }
  expect(order).toEqual(["A", "B", "A", "A"]);
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
  const seat = set.admit(request("fs", "", { initialSeats: 1, finalSeats: 3, additionalLatencyMs: 5 }), () => 0n, LONG_WAIT) as Seat;
  expect(set.seatsInUse).toBe(3);
  seat.release();
  expect(set.executing).toBe(0);
  expect(set.seatsInUse).toBe(3);
  await new Promise((resolve) => setTimeout(resolve, 30));
  expect(set.seatsInUse).toBe(0);
});
