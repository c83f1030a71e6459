/**
 * Fair-queuing work in kube's fixed-point SeatSeconds (fairqueuing/queueset/types.go, request/seatsecs.go):
 * integer counts of 1e-8 seat-seconds, so equal amounts of work compare equal.
 */
import type { WorkEstimate } from "./work-estimate.ts";

/** kube's estimatedServiceDuration: the time a request is assumed to execute until it has (3 ms). */
export const ESTIMATED_SERVICE_MS = 3;
/** One seat-second in the SeatSeconds units below. */
export const SEAT_SECOND = 1e8;

/** kube's SeatSeconds.String(): units of 1e-8 seat-seconds as seconds with eight decimals and "ss". */
export function seatSecondsText(units: number): string {
  const sign = units < 0 ? "-" : "";
  const magnitude = Math.abs(units);
  return `${sign}${Math.floor(magnitude / SEAT_SECOND)}.${String(magnitude % SEAT_SECOND).padStart(8, "0")}ss`;
}

/**
 * kube's SeatsTimesDuration: work as an integer count of 1e-8 seat-seconds (kube's fixed-point SeatSeconds), so
 * equal amounts of work compare equal and ties go round-robin.
 */
export function seatsTimesMs(seats: number, ms: number): number {
  return Math.round(seats * ms * 1e5);
}

/** kube's computeTotalWork: initial seats for the estimated service time, final seats for the additional latency. */
export function totalWork(work: WorkEstimate): number {
  return seatsTimesMs(work.initialSeats, ESTIMATED_SERVICE_MS) + seatsTimesMs(work.finalSeats, work.additionalLatencyMs);
}
