/** Writes API objects, lists and Status errors in the negotiated representation. */
import { stringify as toYaml } from "yaml";
import { encodeProtobufObject, PROTOBUF_MEDIA_TYPE } from "../api/protobuf/mod.ts";
import { type StatusError } from "../api/errors.ts";
import { negotiate, type Representation } from "../api/negotiate.ts";
import type { Printer } from "../api/printers/mod.ts";
import {
  type IncludeObject,
  partialObjectMetadata,
  partialObjectMetadataList,
  type TableOptions,
  tableRow,
  toTable,
} from "../api/table.ts";
import { type KubeList, type KubeObject, type ListMeta, withoutTypeMeta } from "../api/types.ts";
import type { ItemTypeMeta } from "../registry/list.ts";
import { completeResponse } from "../runtime/fetch-adapter.ts";
import { arrayInBatches, streamJsonWithArray } from "./streamed-json.ts";

/** Setting and asking for a field of an answer, a complete one's kept out of its Headers (fetch-adapter.ts). */
export { hasField, withField } from "../runtime/fetch-adapter.ts";

/** Lists with at least this many items are written in pieces when their form is compact JSON. */
const STREAMED_LIST_ITEMS = 500;

export interface EncodeOptions {
  representation: Representation;
  pretty: boolean;
  includeObject: IncludeObject;
  /** The kind's Table columns; absent = kube's default Name / Created At. */
  printer?: Printer;
  /** A Table without its column definitions (a watch's events after the first). */
  noHeaders?: boolean;
}

function tableOptionsOf(version: string, options: EncodeOptions, now = new Date()): TableOptions {
  const printer = options.printer;
  return {
    version,
    include: options.includeObject,
    columns: printer?.columns,
    cells: printer ? (obj) => printer.cells(obj, now) : undefined,
    conditions: printer?.conditions,
    noHeaders: options.noHeaders,
  };
}

function tableOf(items: KubeObject[], listMeta: Partial<ListMeta>, version: string, options: EncodeOptions, now?: Date) {
  return toTable(items, listMeta, tableOptionsOf(version, options, now));
}

export function serialize(value: unknown, format: "json" | "yaml", pretty: boolean): string {
  if (format === "yaml") return toYaml(value);
  return `${pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value)}\n`;
}

/**
 * The serializer's media type, as WriteObjectNegotiated writes it: a Table or metadata-only answer is plain
 * application/json, the Accept header's as/g/v parameters are not echoed (transformResponseObject).
 */
function contentTypeOf(rep: Representation): string {
  if (rep.format === "yaml") return "application/yaml";
  if (rep.format === "protobuf") return PROTOBUF_MEDIA_TYPE;
  return "application/json";
}

/** Bytes of a body in the negotiated form; protobuf applies to API objects and lists (they carry apiVersion and kind). */
export function encodeBody(body: unknown, options: EncodeOptions): string | Uint8Array {
  if (options.representation.format === "protobuf") {
    const obj = body as { apiVersion: string; kind: string };
    return encodeProtobufObject(body as Record<string, unknown>, obj.apiVersion, obj.kind);
  }
  return serialize(body, options.representation.format === "yaml" ? "yaml" : "json", options.pretty);
}

function encoded(body: unknown, status: number, options: EncodeOptions, headers: HeadersInit = {}): Response {
  return completeResponse(encodeBody(body, options), {
    status,
    headers: { ...headers, "Content-Type": contentTypeOf(options.representation) },
  });
}

/**
 * The form of one object in the negotiated representation (also used for watch event payloads); `now` is the time
 * a Table's cells are rendered at, by default the current time.
 */
export function objectBody(obj: KubeObject, options: EncodeOptions, now?: Date): unknown {
  const rep = options.representation;
  if (rep.format === "table") return tableOf([obj], { resourceVersion: obj.metadata.resourceVersion }, rep.version, options, now);
  if (rep.format === "partial-metadata") return partialObjectMetadata(obj, rep.version);
  return obj;
}

/**
 * An object already written as compact JSON (serialize's form) with the newline kube's encoder ends it with: `line`
 * ends in it.
 */
export function respondJsonLine(line: string, status: number): Response {
  return completeResponse(line, { status, headers: { "Content-Type": "application/json" } });
}

export function respondObject(obj: KubeObject, status: number, options: EncodeOptions, headers?: HeadersInit): Response {
  return encoded(objectBody(obj, options), status, options, headers);
}

/**
 * A list in the negotiated form; in JSON and YAML its items carry apiVersion and kind only when `itemTypeMeta`
 * keeps them (protobuf items have no TypeMeta field; Table rows and PartialObjectMetadata items are their own).
 */
export function respondList(list: KubeList, options: EncodeOptions, itemTypeMeta: ItemTypeMeta): Response {
  const rep = options.representation;
  const form = list.items.length >= STREAMED_LIST_ITEMS ? streamedListForm(list, options, itemTypeMeta) : undefined;
  if (form) {
    const body = streamJsonWithArray(form.envelope, form.field, arrayInBatches(list.items, form.element));
    return listBodyResponse(body, options);
  }
  if (rep.format === "table") return encoded(tableOf(rowOrder(list.items, options), list.metadata, rep.version, options), 200, options);
  if (rep.format === "partial-metadata") return encoded(partialObjectMetadataList(list, rep.version), 200, options);
  if (rep.format === "protobuf" || itemTypeMeta === "kept") return encoded(list, 200, options);
  return encoded({ ...list, items: list.items.map(withoutTypeMeta) }, 200, options);
}

/** The items in the order the kind's list printer prints them (kube's printFlowSchemaList sorts, most keep the list's). */
function rowOrder(items: KubeObject[], options: EncodeOptions): KubeObject[] {
  const compare = options.printer?.compareRows;
  return compare ? [...items].sort(compare) : items;
}

export function listBodyResponse(body: BodyInit, options: EncodeOptions): Response {
  return new Response(body, { status: 200, headers: { "Content-Type": contentTypeOf(options.representation) } });
}

/** How a list is written in pieces: its envelope without the array, the array's field, and one element's value. */
export interface StreamedListForm {
  envelope: object;
  field: string;
  element: (obj: KubeObject) => unknown;
}

/**
 * The streamed form of a list (its items are ignored) in compact JSON, Table or PartialObjectMetadataList; undefined
 * for YAML, protobuf and indented JSON, which are written whole.
 */
export function streamedListForm(list: KubeList, options: EncodeOptions, itemTypeMeta: ItemTypeMeta): StreamedListForm | undefined {
  const rep = options.representation;
  if (options.pretty) return undefined;
  if (rep.format === "json") {
    return { envelope: { ...list, items: [] }, field: "items", element: itemTypeMeta === "kept" ? (obj) => obj : withoutTypeMeta };
  }
  if (rep.format === "partial-metadata") {
    return {
      envelope: partialObjectMetadataList({ ...list, items: [] }, rep.version),
      field: "items",
      element: (obj) => partialObjectMetadata(obj, rep.version),
    };
  }
  // Rows a printer sorts need the whole list first.
  if (rep.format === "table" && !options.printer?.compareRows) {
    const table = tableOptionsOf(rep.version, options);
    return { envelope: toTable([], list.metadata, table), field: "rows", element: (obj) => tableRow(obj, table) };
  }
  return undefined;
}

/** A Status in JSON, YAML or protobuf; Table and metadata-only forms do not apply to it and fall back to JSON. */
function statusResponse(
  status: unknown,
  code: number,
  representation: Representation,
  headers: HeadersInit = {},
  pretty = false,
): Response {
  const form: Representation = representation.format === "yaml" || representation.format === "protobuf"
    ? representation
    : { format: "json" };
  return completeResponse(encodeBody(status, { representation: form, pretty, includeObject: "Object" }), {
    status: code,
    headers: { ...headers, "Content-Type": contentTypeOf(form) },
  });
}

/** Non-object answers (a success Status) in the negotiated form. */
export function respondPlain(body: unknown, status: number, options: EncodeOptions): Response {
  if (options.representation.format === "protobuf") return statusResponse(body, status, options.representation);
  const format = options.representation.format === "yaml" ? "yaml" : "json";
  return completeResponse(serialize(body, format, options.pretty), {
    status,
    headers: { "Content-Type": format === "yaml" ? "application/yaml" : "application/json" },
  });
}

/** The Accept entry that picks an error's form; JSON when nothing in the list can carry a Status. */
function errorRepresentation(accept: string | null | undefined): Representation {
  try {
    return negotiate(accept, { allowTable: false, allowProtobuf: true });
  } catch {
    return { format: "json" };
  }
}

/**
 * A Status error in the request's negotiated form, as kube's ErrorNegotiated writes it (JSON, YAML or protobuf),
 * indented when the request's isPrettyPrint says so.
 */
export function respondError(error: StatusError, accept?: string | null, pretty = false): Response {
  return statusResponse(error.toStatus(), error.code, errorRepresentation(accept), error.headers, pretty);
}
