/**
 * /debug/api_priority_and_fairness/dump_priority_levels, dump_queues and dump_requests: kube's
 * apf_controller_debug.go rows (cells joined by ",\t") laid out by Go's text/tabwriter with minwidth 8 and
 * padding 1. Seats are the requests' work estimates; NextDispatchR and TotalWorkSum are the fair-queuing virtual
 * times in kube's SeatSeconds text.
 */
import type { QueueSet } from "./queue-set.ts";
import type { WaitingRequest } from "./queue-set-types.ts";
import { seatSecondsText } from "./seat-seconds.ts";
import { maxSeats } from "./work-estimate.ts";

export interface DumpedLevel {
  name: string;
  /** Undefined for the exempt level, which has no queues (kube prints "<none>" there). */
  queues: QueueSet | undefined;
}

/** What dump_requests?includeRequestDetails=1 adds per request. */
export interface RequestDetails {
  username: string;
  verb: string;
  path: string;
  namespace: string;
  name: string;
  apiVersion: string;
  resource: string;
  subresource: string;
}

export type DumpedRequest = WaitingRequest & { details?: RequestDetails };

const NONE = "<none>";
const MIN_WIDTH = 8;
const PADDING = 1;

/** Go's tabwriter over rows of cells: every cell but a line's last is padded to its column's width. */
export function tabulate(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.slice(0, -1).forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? MIN_WIDTH, cell.length + 1 + PADDING)));
  }
  return rows.map((row) => row.map((cell, i) => (i < row.length - 1 ? `${cell},`.padEnd(widths[i]) : cell)).join("") + "\n").join("");
}

export function dumpPriorityLevels(levels: readonly DumpedLevel[]): string {
  const rows = [["PriorityLevelName", "ActiveQueues", "IsIdle", "IsQuiescing", "WaitingRequests", "ExecutingRequests"]];
  for (const { name, queues } of levels) {
    if (!queues) {
      rows.push([name, NONE, NONE, NONE, NONE, NONE]);
      continue;
    }
    const active = queues.queues().filter((queue) => queue.waiting.length > 0).length;
    const idle = queues.waiting === 0 && queues.executing === 0;
    rows.push([name, String(active), String(idle), "false", String(queues.waiting), String(queues.executing)]);
  }
  return tabulate(rows);
}

export function dumpQueues(levels: readonly DumpedLevel[]): string {
  const rows = [[
    "PriorityLevelName",
    "Index",
    "PendingRequests",
    "ExecutingRequests",
    "SeatsInUse",
    "NextDispatchR",
    "InitialSeatsSum",
    "MaxSeatsSum",
    "TotalWorkSum",
  ]];
  for (const { name, queues } of levels) {
    if (!queues) {
      rows.push([name, ...Array<string>(8).fill(NONE)]);
      continue;
    }
    queues.queues().forEach((queue, index) => {
      const initialSeats = queue.waiting.reduce((sum, request) => sum + request.work.initialSeats, 0);
      const seatsSum = queue.waiting.reduce((sum, request) => sum + maxSeats(request.work), 0);
      rows.push([
        name,
        String(index),
        String(queue.waiting.length),
        String(queue.executing),
        String(queue.seatsInUse),
        seatSecondsText(queue.nextDispatchR),
        String(initialSeats),
        String(seatsSum),
        seatSecondsText(queue.totalWork),
      ]);
    });
  }
  return tabulate(rows);
}

export function dumpRequests(levels: readonly DumpedLevel[], includeDetails: boolean): string {
  const header = [
    "PriorityLevelName",
    "FlowSchemaName",
    "QueueIndex",
    "RequestIndexInQueue",
    "FlowDistingsher",
    "ArriveTime",
    "InitialSeats",
    "FinalSeats",
    "AdditionalLatency",
  ];
  const detailHeader = ["UserName", "Verb", "APIPath", "Namespace", "Name", "APIVersion", "Resource", "SubResource"];
  const rows = [includeDetails ? [...header, ...detailHeader] : header];
  for (const { name, queues } of levels) {
    queues?.queues().forEach((queue, queueIndex) =>
      queue.waiting.forEach((request: DumpedRequest, index) => {
        const row = [
          name,
          request.flowSchema,
          String(queueIndex),
          String(index),
          request.distinguisher,
          new Date(request.arrivedAtMs).toISOString(),
          String(request.work.initialSeats),
          String(request.work.finalSeats),
          goDuration(request.work.additionalLatencyMs),
        ];
        const d = request.details;
        if (includeDetails && d) row.push(d.username, d.verb, d.path, d.namespace, d.name, d.apiVersion, d.resource, d.subresource);
        rows.push(row);
      })
    );
  }
  return tabulate(rows);
}

/** A millisecond count as Go's time.Duration String() writes it ("0s", "5ms", "1.5ms"). */
function goDuration(ms: number): string {
  if (ms === 0) return "0s";
  return ms < 1000 ? `${Number(ms.toFixed(6))}ms` : `${Number((ms / 1000).toFixed(9))}s`;
}
