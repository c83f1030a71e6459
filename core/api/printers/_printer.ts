/** The shape of a kind's table printer and the column-definition helpers every printer file shares. */
import type { TableColumn, TableRowCondition } from "../table.ts";
import type { KubeObject } from "../types.ts";

/** Columns and one row's cells; cells always include the priority-1 (`-o wide`) columns, as kube's server does. */
export interface Printer {
  columns: TableColumn[];
  cells(obj: KubeObject, now: Date): unknown[];
  /** The row's conditions (TableRow.Conditions); undefined when the kind's printer sets none. */
  conditions?(obj: KubeObject): TableRowCondition[] | undefined;
  /** The order a list's rows are printed in, for kinds whose print<Kind>List sorts them; absent = the list's order. */
  compareRows?(a: KubeObject, b: KubeObject): number;
}

/** What a printer adds besides columns and cells. */
export interface PrinterExtras<T extends KubeObject> {
  conditions?: (obj: T) => TableRowCondition[] | undefined;
  compareRows?: (a: T, b: T) => number;
}

export interface ColumnOptions {
  type?: "string" | "integer" | "number" | "boolean" | "date";
  format?: string;
  priority?: number;
}

export function column(name: string, description: string, options: ColumnOptions = {}): TableColumn {
  return { name, type: options.type ?? "string", format: options.format ?? "", description, priority: options.priority ?? 0 };
}

/** A priority-1 column: kubectl shows it only with `-o wide`. */
export function wideColumn(name: string, description: string, options: ColumnOptions = {}): TableColumn {
  return column(name, description, { ...options, priority: 1 });
}

export const NAME_COLUMN = column("Name", "Name of the object, unique within its namespace", { format: "name" });
export const AGE_COLUMN = column("Age", "Time since the object was created");
export const CONTAINERS_COLUMN = wideColumn("Containers", "Names of the containers in the pod template");
export const IMAGES_COLUMN = wideColumn("Images", "Images of the containers in the pod template");

/** Binds a kind's typed cell function to its columns; objects reach printers already validated. */
export function definePrinter<T extends KubeObject>(
  columns: TableColumn[],
  cells: (obj: T, now: Date) => unknown[],
  extras: PrinterExtras<T> = {},
): Printer {
  const printer: Printer = { columns, cells: (obj, now) => cells(obj as T, now) };
  const { conditions, compareRows } = extras;
  if (conditions) printer.conditions = (obj) => conditions(obj as T);
  if (compareRows) printer.compareRows = (a, b) => compareRows(a as T, b as T);
  return printer;
}
