/**
 * Complete answers (completeResponse): a Response whose body is complete when it is made, its fields kept out of its
 * Headers until someone reads them, so kubun's HTTP/1.x writer (fetch-adapter.ts writeResponse) writes them without
 * the Headers' native calls, in the order and spelling Bun's Headers would give them.
 */
import type { OutgoingHttpHeaders } from "node:http";

/** Bun's Headers give their fields as one object in one native call, Set-Cookie as a list, the rest comma-joined. */
type FieldObject = () => Record<string, string | string[]>;
export const fieldObject = (Headers.prototype as { toJSON?: FieldObject }).toJSON;

/**
 * A field of a complete answer kept out of its Response's Headers (see CompleteResponse): the name as Bun's Headers
 * would give it back (`key`, lower case) and whether they list it among their well-known names, which come before all
 * others (WebCore's HTTPHeaderMap keeps the two kinds apart, each in the order set).
 */
interface FieldName {
  key: string;
  wellKnown: boolean;
}

interface KeptField {
  name: string;
  field: FieldName;
  value: string;
}

/** RFC 9110's token: a field name Headers would accept. */
const FIELD_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/**
 * A value Headers would keep as it is: visible ASCII and inner spaces. Any other (surrounding whitespace, which
 * Headers trims, bytes past ASCII, a CR or LF) goes through Headers, which normalizes or refuses it.
 */
const PLAIN_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
/**
 * Names written by Headers' own rules: Set-Cookie and Warning are lists (responseHeaders), the framing fields and
 * Date are the writer's to decide (a handler may still set them, through Headers).
 */
const FIELDS_THROUGH_HEADERS = new Set(["set-cookie", "warning", "content-length", "transfer-encoding", "connection", "date"]);
/** Names seen, each a constant of the code (a few dozen); the bound only keeps a stray caller from growing it. */
const fieldNames = new Map<string, FieldName | null>();
const MAX_FIELD_NAMES = 256;

/** How Bun's Headers treat the name, or null for a name they are left to (and under Deno, where none are kept). */
function fieldNameOf(name: string): FieldName | null {
  const seen = fieldNames.get(name);
  if (seen !== undefined) return seen;
  const key = name.toLowerCase();
  const known = fieldObject && FIELD_NAME.test(name) && !FIELDS_THROUGH_HEADERS.has(key) ? { key, wellKnown: listedFirst(key) } : null;
  if (fieldNames.size < MAX_FIELD_NAMES) fieldNames.set(name, known);
  return known;
}

const PROBE_NAME = "x-kubun-order-probe";

/** Whether Bun's Headers list `key` before a name they do not know though it was set after it. */
function listedFirst(key: string): boolean {
  const probe = new Headers();
  probe.set(PROBE_NAME, "");
  probe.set(key, "");
  for (const name in fieldObject!.call(probe)) return name === key;
  return false;
}

/** How a field is kept out of Headers, or null when Headers must take it (its value or name is theirs to normalize). */
function keptName(name: string, value: string): FieldName | null {
  return PLAIN_VALUE.test(value) ? fieldNameOf(name) : null;
}

/** The fields of a Headers init as kept fields; undefined when any is left to Headers (or the init is no record). */
function keptFields(headers: HeadersInit | undefined): KeptField[] | undefined {
  const fields: KeptField[] = [];
  if (headers === undefined) return fields;
  if (headers instanceof Headers || Array.isArray(headers)) return undefined;
  for (const name in headers) {
    const value = (headers as Record<string, string>)[name]!;
    const field = keptName(name, value);
    if (field === null || fields.some((kept) => kept.field.key === field.key)) return undefined;
    fields.push({ name, field, value });
  }
  return fields;
}

/**
 * A Response whose body is complete when it is made (a serialized object, a Status). The adapter writes such a body
 * as it is: opening a Response's body stream and reading it back costs more than the rest of a small answer's
 * writing. Its fields, the handler's and those the chain adds through withField, stay out of the Response's Headers
 * until someone reads `headers`: kubun's HTTP/1.x writer takes them from here, in the order and spelling Bun's
 * Headers would give them, without the Headers' native set, has and toJSON calls (~1 µs of a create's answer,
 * bench/profiles/create-path.md, fourteenth session). A copy (`new Response(response.body, response)`) reads the
 * fields through `headers` and is an ordinary Response again.
 */
export class CompleteResponse extends Response {
  readonly completeBody: string | Uint8Array;
  /** Fields not yet in the Headers; undefined once they are there. */
  #kept: KeptField[] | undefined;

  constructor(body: string | Uint8Array, init: ResponseInit | undefined, kept: KeptField[] | undefined) {
    super(body as BodyInit, kept === undefined || init === undefined ? init : { status: init.status, statusText: init.statusText });
    this.completeBody = body;
    this.#kept = kept;
  }

  override get headers(): Headers {
    return this.#withKeptFields();
  }

  override clone(): Response {
    this.#withKeptFields();
    return super.clone();
  }

  /** The Headers, the kept fields moved into them. */
  #withKeptFields(): Headers {
    const headers = super.headers;
    const kept = this.#kept;
    if (kept !== undefined) {
      this.#kept = undefined;
      for (const { name, value } of kept) headers.set(name, value);
    }
    return headers;
  }

  /** Headers.set's effect on a kept field; false when the field is left to Headers (the caller sets it there). */
  keep(name: string, value: string): boolean {
    const kept = this.#kept;
    if (kept === undefined) return false;
    const field = keptName(name, value);
    if (field === null) return false;
    for (const one of kept) {
      if (one.field.key === field.key) {
        one.value = value;
        return true;
      }
    }
    kept.push({ name, field, value });
    return true;
  }

  /** Whether a field is kept here; undefined when the Headers hold the fields. */
  keeps(name: string): boolean | undefined {
    const kept = this.#kept;
    if (kept === undefined) return undefined;
    const key = fieldNameOf(name)?.key ?? name.toLowerCase();
    return kept.some((one) => one.field.key === key);
  }

  /** The kept fields as Bun's Headers' toJSON would give them (well-known names first), or undefined. */
  wireFields(): OutgoingHttpHeaders | undefined {
    const kept = this.#kept;
    if (kept === undefined) return undefined;
    const fields: OutgoingHttpHeaders = {};
    for (const one of kept) if (one.field.wellKnown) fields[one.field.key] = one.value;
    for (const one of kept) if (!one.field.wellKnown) fields[one.field.key] = one.value;
    return fields;
  }
}

/** A Response whose body is complete when it is made (see CompleteResponse). */
export function completeResponse(body: string | Uint8Array, init?: ResponseInit): Response {
  return new CompleteResponse(body, init, keptFields(init?.headers));
}

/**
 * Headers.set on a Response's field, kept out of its Headers for a complete answer (CompleteResponse). A Response of
 * fetch's (the aggregation proxy's) has immutable Headers: a copy then carries the field.
 */
export function withField(response: Response, name: string, value: string): Response {
  if (response instanceof CompleteResponse && response.keep(name, value)) return response;
  try {
    response.headers.set(name, value);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set(name, value);
    return copy;
  }
}

/** Headers.has on a Response, without moving a complete answer's fields into its Headers. */
export function hasField(response: Response, name: string): boolean {
  return (response instanceof CompleteResponse ? response.keeps(name) : undefined) ?? response.headers.has(name);
}
