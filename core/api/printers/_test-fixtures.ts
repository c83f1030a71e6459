/** Shared test fixtures: a fixed clock and objects created a known time before it. */
import type { TableColumn } from "../table.ts";
import type { KubeObject, ObjectMeta } from "../types.ts";

export const NOW = new Date("2024-05-01T12:00:00Z");

/** An RFC 3339 timestamp `seconds` before NOW. */
export function ago(seconds: number): string {
  return new Date(NOW.getTime() - seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** An object named `name`, created 5 minutes before NOW (AGE "5m"). */
export function object(name: string, fields: Record<string, unknown> = {}, metadata: ObjectMeta = {}): KubeObject {
  return { metadata: { name, creationTimestamp: ago(300), ...metadata }, ...fields };
}

/** Column names with their priority marked, e.g. "IP*" for a wide column, to compare definitions compactly. */
export function columnNames(columns: TableColumn[]): string[] {
  return columns.map((c) => (c.priority > 0 ? `${c.name}*` : c.name));
}
