/**
 * Table columns of a custom resource (apiextensions-apiserver's tableconvertor): Name, then the version's
 * additionalPrinterColumns, or Age when it declares none.
 */
import { timeSince } from "../api/printers/mod.ts";
import type { Printer } from "../api/printers/mod.ts";
import type { TableColumn } from "../api/table.ts";
import type { KubeObject } from "../api/types.ts";
import type { PrinterColumn } from "../registry/apiextensions/mod.ts";
import { evaluateJSONPath, parseJSONPath } from "../registry/apiextensions/mod.ts";

const NAME_DESCRIPTION =
  "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a " +
  "client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and " +
  "configuration definition. Cannot be updated. More info: http://kubernetes.io/docs/user-guide/identifiers#names";

const AGE_COLUMN: PrinterColumn = { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" };

function cellOf(column: PrinterColumn, values: unknown[], now: Date): unknown {
  if (values.length === 0) return null;
  if (column.type === "date") return timeSince(values[0], now);
  if (column.type === "string") return values.map((value) => typeof value === "string" ? value : JSON.stringify(value)).join(",");
  return values[0];
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
      description: column.description ?? "",
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
