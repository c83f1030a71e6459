import { expect, test } from "bun:test";
import { type FieldError, newInvalid } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import { validateEventCreate, validateEventUpdate } from "./event.ts";

/** The 422 message the errors make, as kube prints field errors. */
function message(errors: FieldError[]): string {
  return errors.length === 0 ? "" : newInvalid({ group: "", kind: "Event" }, "e", errors).message;
}

/** A complete events.k8s.io-style Event in core/v1's shape. */
const modern = (extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: "v1",
  kind: "Event",
  metadata: { name: "e", namespace: "ns" },
  involvedObject: { kind: "Pod", namespace: "ns", name: "web" },
  reason: "Scheduled",
  message: "assigned",
  type: "Normal",
  eventTime: "2026-01-01T00:00:00.000000Z",
  action: "Binding",
  reportingComponent: "example.com/ctl",
  reportingInstance: "ctl-0",
  ...extra,
});

const legacy = (extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: "v1",
  kind: "Event",
  metadata: { name: "e", namespace: "ns" },
  involvedObject: { kind: "Pod", namespace: "ns", name: "web" },
  reason: "Pulled",
  message: "pulled",
  source: { component: "kubelet" },
  count: 2,
  firstTimestamp: "2026-01-01T00:00:00Z",
  ...extra,
});

test("legacyValidateEvent: a core/v1 Event without eventTime must name its own namespace (or none, from default)", () => {
  expect(validateEventCreate(legacy(), "v1")).toEqual([]);
  expect(message(validateEventCreate(legacy({ involvedObject: { kind: "Pod", namespace: "other", name: "web" } }), "v1"))).toContain(
    'involvedObject.namespace: Invalid value: "other": does not match event.namespace',
  );
  expect(message(validateEventCreate(legacy({ involvedObject: { kind: "Node", name: "n1" } }), "v1"))).toContain(
    'involvedObject.namespace: Invalid value: "": does not match event.namespace',
  );
  const inDefault = legacy({ involvedObject: { kind: "Node", name: "n1" } });
  inDefault.metadata.namespace = "default";
  expect(validateEventCreate(inDefault, "v1")).toEqual([]);
});

test("legacyValidateEvent: an Event with eventTime needs reportingController, reportingInstance, action and reason, whatever the version", () => {
  const bare = modern({ reportingComponent: undefined, reportingInstance: undefined, action: undefined, reason: undefined });
  expect(message(validateEventCreate(bare, "v1"))).toBe(
    'Event "e" is invalid: [reportingController: Required value, reportingController: Invalid value: "": name part must be non-empty, ' +
      "reportingController: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end " +
      "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is " +
      "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), reportingInstance: Required value, action: Required value, reason: Required value]",
  );
  expect(message(validateEventCreate(modern({ message: "x".repeat(1025) }), "v1"))).toBe(
    'Event "e" is invalid: message: Invalid value: "": can have at most 1024 characters',
  );
});

test("ValidateEventCreate: events.k8s.io/v1 also needs eventTime and a Normal or Warning type, and no legacy fields", () => {
  expect(validateEventCreate(modern(), "events.k8s.io/v1")).toEqual([]);
  expect(message(validateEventCreate(legacy(), "events.k8s.io/v1"))).toBe(
    'Event "e" is invalid: [eventTime: Required value, type: Invalid value: "": has invalid value: , firstTimestamp: Invalid value: "": ' +
      'needs to be unset, count: Invalid value: "": needs to be unset, source: Invalid value: "": needs to be unset]',
  );
  expect(message(validateEventCreate(modern({ series: { count: 1 } }), "events.k8s.io/v1"))).toBe(
    'Event "e" is invalid: [series.count: Invalid value: "": should be at least 2, series.lastObservedTime: Required value]',
  );
});

test("ValidateEventUpdate: through events.k8s.io/v1 only series and metadata change; core/v1 updates are free", () => {
  const old = modern();
  expect(validateEventUpdate(modern({ message: "changed", count: 3 }), old, "v1")).toEqual([]);
  expect(validateEventUpdate(modern({ series: { count: 2, lastObservedTime: "2026-01-01T00:00:01.000000Z" } }), old, "events.k8s.io/v1"))
    .toEqual([]);
  expect(message(validateEventUpdate(modern({ message: "changed", involvedObject: { kind: "Pod", name: "x" } }), old, "events.k8s.io/v1")))
    .toBe(
      'Event "e" is invalid: [involvedObject.namespace: Invalid value: "": does not match event.namespace, involvedObject: Invalid value: ' +
        'core.ObjectReference{Kind:"Pod", Namespace:"", Name:"x", UID:"", APIVersion:"", ResourceVersion:"", FieldPath:""}: field is immutable, ' +
        'message: Invalid value: "changed": field is immutable]',
    );
  expect(message(validateEventUpdate(modern({ eventTime: "2026-01-02T00:00:00.5Z" }), old, "events.k8s.io/v1"))).toBe(
    'Event "e" is invalid: eventTime: Invalid value: 2026-01-02 00:00:00.5 +0000 UTC: field is immutable',
  );
});
