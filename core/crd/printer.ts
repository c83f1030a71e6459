/**
 * Table columns of a custom resource (apiextensions-apiserver's tableconvertor): Name, then the version's
 * additionalPrinterColumns, or Age when it declares none.
 */
import { humanDuration } from "../api/printers/mod.ts";
import type { Printer } from "../api/printers/mod.ts";
import type { TableColumn } from "../api/table.ts";
import type { KubeObject } from "../api/types.ts";
import type { PrinterColumn } from "../registry/apiextensions/mod.ts";
import { evaluateJSONPath, parseJSONPath } from "../registry/apiextensions/mod.ts";
import { parsesAsRFC3339 } from "../schema/time-parse.ts";

const NAME_DESCRIPTION =
  "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a " +
  "client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and " +
  "configuration definition. Cannot be updated. More info: http://kubernetes.io/docs/user-guide/identifiers#names";

const AGE_COLUMN: PrinterColumn = {
  name: "Age",
  type: "date",
  jsonPath: ".metadata.creationTimestamp",
  description: "Time since the object was created",
};

/** jsonpath's PrintResults of one value: maps and lists as compact JSON, anything else as its text. */
function printedText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** metav1.Time.UnmarshalQueryParameter, then ConvertToHumanReadableDateType: "<invalid>" when it does not parse. */
function dateCell(value: string, now: Date): string {
  if (value === "" || value === "null") return "<unknown>";
  return parsesAsRFC3339(value) ? humanDuration(now.getTime() - Date.parse(value)) : "<invalid>";
}

/**
 * cellForJSONValue: the value when it has the column's type (integers truncated, integers beyond 2^53 kept exact,
 * dates as ages), else null.
 */
function typedCell(type: string, value: unknown, now: Date): unknown {
  switch (type) {
    case "integer":
      if (typeof value === "bigint") return value;
      return typeof value === "number" ? Math.trunc(value) : null;
    case "number":
      if (typeof value === "bigint") return Number(value);
      return typeof value === "number" ? value : null;
    case "boolean":
      return typeof value === "boolean" ? value : null;
    case "date":
      return typeof value === "string" ? dateCell(value, now) : null;
  }
  return null;
}

/**
 * The tableconvertor's cell: only the first value the JSONPath finds counts ("we only support simple JSON path");
 * string columns print it whatever its type, the other types keep only values of their type.
 */
function cellOf(column: PrinterColumn, values: unknown[], now: Date): unknown {
  if (values.length === 0) return null;
  return column.type === "string" ? printedText(values[0]) : typedCell(column.type, values[0], now);
}

export function customResourcePrinter(columns: PrinterColumn[] | undefined): Printer {
  const declared = columns && columns.length > 0 ? columns : [AGE_COLUMN];
  const paths = declared.map((column) => parseJSONPath(column.jsonPath));
  const tableColumns: TableColumn[] = [
    { name: "Name", type: "string", format: "name", description: NAME_DESCRIPTION, priority: 0 },
    ...declared.map((column) => ({
      name: column.name,
      type: column.type,
      format: column.format ?? "",
      description: column.description || `Custom resource definition column (in JSONPath format): ${column.jsonPath}`,
      priority: column.priority ?? 0,
    })),
  ];
  return {
    columns: tableColumns,
    cells: (obj: KubeObject, now: Date) => [
      obj.metadata.name,
      ...declared.map((column, i) => cellOf(column, evaluateJSONPath(paths[i], obj), now)),
    ],
  };
}
