/**
 * Event rules (pkg/apis/core/validation/events.go) on the core/v1 shape, which events.k8s.io/v1 Events are validated
 * in too (kube validates the internal core.Event, so paths use core's names: message, involvedObject, source).
 * Writes through core/v1 get only legacyValidateEvent; writes through events.k8s.io/v1 also get the strict rules.
 * ObjectMeta is checked by the common metadata rules (validate.ts), not again here.
 */
import type { FieldError } from "../../api/errors.ts";
import { byteLength, goQuote } from "../../api/go-text.ts";
import { isDNS1123Subdomain, isQualifiedName } from "../../api/names.ts";
import type { KubeObject } from "../../api/types.ts";
import { deepEqual, invalid, invalidEach, record, required, text } from "./_field.ts";

const REPORTING_INSTANCE_LENGTH_LIMIT = 128;
const ACTION_LENGTH_LIMIT = 128;
const REASON_LENGTH_LIMIT = 128;
const NOTE_LENGTH_LIMIT = 1024;

/** The API version a write came through: kube's ValidateEventCreate relaxes its rules for core/v1 (and v1beta1). */
export type EventRequestVersion = "v1" | "events.k8s.io/v1";

/** A Go time.Time's instant, or undefined for the zero time (absent or null in JSON). */
function instant(value: unknown): number | undefined {
  if (typeof value !== "string" || value === "") return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) || ms === Date.parse("0001-01-01T00:00:00Z") ? undefined : ms;
}

function namespaceOf(event: KubeObject): string {
  return text(event.metadata.namespace);
}

/** legacyValidateEvent: namespace agreement, and for Events with an eventTime the reporting fields. */
function legacyValidateEvent(event: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const namespace = namespaceOf(event);
  const involvedNamespace = text(record(event.involvedObject).namespace);
  const mismatch = () => invalid("involvedObject.namespace", involvedNamespace, "does not match event.namespace");
  if (instant(event.eventTime) === undefined) {
    if (involvedNamespace === "" ? namespace !== "" && namespace !== "default" : namespace !== involvedNamespace) errors.push(mismatch());
  } else {
    if (involvedNamespace === "" && namespace !== "default" && namespace !== "kube-system") errors.push(mismatch());
    const controller = text(event.reportingComponent);
    if (controller === "") errors.push(required("reportingController"));
    errors.push(...invalidEach("reportingController", controller, isQualifiedName(controller)));
    errors.push(...requiredWithLimit("reportingInstance", text(event.reportingInstance), REPORTING_INSTANCE_LENGTH_LIMIT));
    errors.push(...requiredWithLimit("action", text(event.action), ACTION_LENGTH_LIMIT));
    errors.push(...requiredWithLimit("reason", text(event.reason), REASON_LENGTH_LIMIT));
    if (byteLength(text(event.message)) > NOTE_LENGTH_LIMIT) errors.push(atMost("message", NOTE_LENGTH_LIMIT));
  }
  errors.push(...invalidEach("namespace", namespace, isDNS1123Subdomain(namespace)));
  return errors;
}

function atMost(field: string, limit: number): FieldError {
  return invalid(field, "", `can have at most ${limit} characters`);
}

function requiredWithLimit(field: string, value: string, limit: number): FieldError[] {
  if (value === "") return [required(field)];
  return byteLength(value) > limit ? [atMost(field, limit)] : [];
}

/** validateV1EventSeries. */
function validateSeries(event: KubeObject): FieldError[] {
  if (event.series === undefined || event.series === null) return [];
  const series = record(event.series);
  const errors: FieldError[] = [];
  if (typeof series.count !== "number" || series.count < 2) errors.push(invalid("series.count", "", "should be at least 2"));
  if (instant(series.lastObservedTime) === undefined) errors.push(required("series.lastObservedTime"));
  return errors;
}

/** kube's ValidateEventCreate. */
export function validateEventCreate(event: KubeObject, requestVersion: EventRequestVersion): FieldError[] {
  const errors = legacyValidateEvent(event);
  if (requestVersion === "v1") return errors;
  errors.push(...validateSeries(event));
  if (instant(event.eventTime) === undefined) errors.push(required("eventTime"));
  if (event.type !== "Normal" && event.type !== "Warning") {
    errors.push(invalid("type", "", `has invalid value: ${text(event.type)}`));
  }
  const unset = (field: string) => invalid(field, "", "needs to be unset");
  if (instant(event.firstTimestamp) !== undefined) errors.push(unset("firstTimestamp"));
  if (instant(event.lastTimestamp) !== undefined) errors.push(unset("lastTimestamp"));
  if (typeof event.count === "number" && event.count !== 0) errors.push(unset("count"));
  const source = record(event.source);
  if (text(source.component) !== "" || text(source.host) !== "") errors.push(unset("source"));
  return errors;
}

/** Go's time.Time.String() in UTC ("2006-01-02 15:04:05.999999999 +0000 UTC"), as field errors print Times. */
function goTime(value: unknown): string {
  const ms = instant(value);
  if (ms === undefined) return "0001-01-01 00:00:00 +0000 UTC";
  const fraction = /\.(\d+)/.exec(String(value))?.[1]?.replace(/0+$/, "") ?? "";
  const seconds = new Date(ms).toISOString().slice(0, 19).replace("T", " ");
  return `${seconds}${fraction ? `.${fraction}` : ""} +0000 UTC`;
}

function goObjectReference(value: unknown): string {
  const ref = record(value);
  const fields = ["Kind", "Namespace", "Name", "UID", "APIVersion", "ResourceVersion", "FieldPath"];
  const json = ["kind", "namespace", "name", "uid", "apiVersion", "resourceVersion", "fieldPath"];
  return `core.ObjectReference{${fields.map((f, i) => `${f}:${goQuote(text(ref[json[i]!]))}`).join(", ")}}`;
}

interface EventField {
  /** kube's path for the field (the internal type's name). */
  path: string;
  /** The field's value, compared as Go's Semantic.DeepEqual would (zero values equal absent ones). */
  value: (event: KubeObject) => unknown;
  /** The new value as the Invalid error prints it (fmt %#v, %q, %v or the Stringer). */
  print: (event: KubeObject) => string;
}

const stringField = (path: string, json = path): EventField => ({
  path,
  value: (e) => text(e[json]),
  print: (e) => goQuote(text(e[json])),
});
const timeField = (path: string): EventField => ({ path, value: (e) => instant(e[path]) ?? 0, print: (e) => goTime(e[path]) });
const referenceField = (path: string, nullable: boolean): EventField => ({
  path,
  value: (e) => nullable && (e[path] === undefined || e[path] === null) ? null : goObjectReference(e[path]),
  print: (e) => nullable && (e[path] === undefined || e[path] === null) ? goQuote("null") : goObjectReference(e[path]),
});

/** ValidateEventUpdate's immutable fields, in its order (reason is checked twice there, so it is here). */
const IMMUTABLE_FIELDS: readonly EventField[] = [
  referenceField("involvedObject", false),
  stringField("reason"),
  stringField("message"),
  {
    path: "source",
    value: (e) => [text(record(e.source).component), text(record(e.source).host)],
    print: (e) => `core.EventSource{Component:${goQuote(text(record(e.source).component))}, Host:${goQuote(text(record(e.source).host))}}`,
  },
  timeField("firstTimestamp"),
  timeField("lastTimestamp"),
  {
    path: "count",
    value: (e) => typeof e.count === "number" ? e.count : 0,
    print: (e) => String(typeof e.count === "number" ? e.count : 0),
  },
  stringField("reason"),
  stringField("type"),
  timeField("eventTime"),
  stringField("action"),
  referenceField("related", true),
  stringField("reportingController", "reportingComponent"),
  stringField("reportingInstance"),
];

function seriesValue(event: KubeObject): unknown {
  if (event.series === undefined || event.series === null) return null;
  const series = record(event.series);
  return [typeof series.count === "number" ? series.count : 0, instant(series.lastObservedTime) ?? 0];
}

/** kube's ValidateEventUpdate. */
export function validateEventUpdate(event: KubeObject, old: KubeObject, requestVersion: EventRequestVersion): FieldError[] {
  const errors = legacyValidateEvent(event);
  if (requestVersion === "v1") return errors;
  if (!deepEqual(seriesValue(event), seriesValue(old))) errors.push(...validateSeries(event));
  for (const field of IMMUTABLE_FIELDS) {
    if (deepEqual(field.value(event), field.value(old))) continue;
    errors.push(invalid(field.path, event[field.path] ?? null, "field is immutable", field.print(event)));
  }
  return errors;
}
