/**
 * The Table representation (meta.k8s.io Table) with kube's default columns, Name and Created At, used for kinds
 * without their own printer; rows carry the object as kube's `includeObject` option asks.
 */
import { aggregateFieldErrors, newBadRequest } from "./errors.ts";
import type { KubeList, KubeObject, ListMeta } from "./types.ts";

export type IncludeObject = "None" | "Metadata" | "Object";

/**
 * The includeObject of a request answered as a Table, checked as kube's optionsForTransform does with
 * ValidateTableOptions (empty means Metadata); other representations never read it, so never refuse it.
 */
export function tableIncludeObject(query: URLSearchParams): IncludeObject {
  const value = query.get("includeObject") ?? "";
  if (value === "") return "Metadata";
  if (value === "None" || value === "Metadata" || value === "Object") return value;
  const invalid = aggregateFieldErrors([
    { type: "FieldValueInvalid", field: "includeObject", value, detail: "must be 'Metadata', 'Object', 'None', or empty" },
  ]);
  throw newBadRequest(`Unable to convert to Table as requested: ${invalid}`);
}

export interface TableColumn {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

/** metav1.TableRowCondition, e.g. the Completed condition of a finished pod's row. */
export interface TableRowCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

export interface TableRow {
  cells: unknown[];
  conditions?: TableRowCondition[];
  object?: unknown;
}

export interface Table {
  kind: "Table";
  apiVersion: string;
  metadata: Partial<ListMeta>;
  /** null when the options ask for no headers (the field is not omitempty in kube's Table). */
  columnDefinitions: TableColumn[] | null;
  rows: TableRow[];
}

export const DEFAULT_COLUMNS: TableColumn[] = [
  { name: "Name", type: "string", format: "name", description: "Name of the object, unique within its namespace", priority: 0 },
  { name: "Created At", type: "date", format: "", description: "When the object was created", priority: 0 },
];

export function partialObjectMetadata(obj: KubeObject, version: string): KubeObject {
  return { kind: "PartialObjectMetadata", apiVersion: `meta.k8s.io/${version}`, metadata: obj.metadata };
}

function rowObject(obj: KubeObject, include: IncludeObject, version: string): unknown {
  if (include === "None") return undefined;
  return include === "Object" ? obj : partialObjectMetadata(obj, version);
}

export function defaultCells(obj: KubeObject): unknown[] {
  return [obj.metadata.name, obj.metadata.creationTimestamp];
}

export interface TableOptions {
  version: string;
  include: IncludeObject;
  columns?: TableColumn[];
  cells?: (obj: KubeObject) => unknown[];
  /** The row's conditions, when the kind's printer sets any. */
  conditions?: (obj: KubeObject) => TableRowCondition[] | undefined;
  /** kube's TableOptions.NoHeaders: the column definitions are left out. */
  noHeaders?: boolean;
}

/** One object's row: its cells and, as `include` asks, the object or its metadata. */
export function tableRow(obj: KubeObject, options: TableOptions): TableRow {
  const row: TableRow = { cells: (options.cells ?? defaultCells)(obj) };
  const conditions = options.conditions?.(obj);
  if (conditions) row.conditions = conditions;
  const object = rowObject(obj, options.include, options.version);
  if (object !== undefined) row.object = object;
  return row;
}

export function toTable(items: KubeObject[], listMeta: Partial<ListMeta>, options: TableOptions): Table {
  return {
    kind: "Table",
    apiVersion: `meta.k8s.io/${options.version}`,
    metadata: listMeta,
    columnDefinitions: options.noHeaders ? null : options.columns ?? DEFAULT_COLUMNS,
    rows: items.map((obj) => tableRow(obj, options)),
  };
}

export function partialObjectMetadataList(list: KubeList, version: string): KubeList {
  return {
    kind: "PartialObjectMetadataList",
    apiVersion: `meta.k8s.io/${version}`,
    metadata: list.metadata,
    items: list.items.map((o) => partialObjectMetadata(o, version)),
  };
}
