import { expect, test } from "bun:test";
import type { AuditEvent } from "./event.ts";
import type { AuditSink } from "./sink.ts";
import { truncateProblems, truncatingSink } from "./truncate.ts";

function recorder(): { sink: AuditSink; got: AuditEvent[] } {
  const got: AuditEvent[] = [];
  return { got, sink: { processEvent: (event) => (got.push(event), Promise.resolve(true)), shutdown: () => Promise.resolve() } };
}

const event = (level: AuditEvent["level"], body: string): AuditEvent =>
  ({
    kind: "Event",
    apiVersion: "audit.k8s.io/v1",
    level,
    auditID: "id",
    stage: "ResponseComplete",
    requestURI: "/api/v1/namespaces/default/configmaps",
    verb: "create",
    requestObject: { data: { blob: body } },
    responseObject: { data: { blob: body } },
  }) as unknown as AuditEvent;

test("truncate backend: an event over the limit loses its objects and is annotated audit.k8s.io/truncated", async () => {
  const { sink, got } = recorder();
  const errors: Error[] = [];
  const truncating = truncatingSink(sink, { maxEventSize: 1000, maxBatchSize: 10_000 }, (error) => errors.push(error));
  await truncating.processEvent(event("RequestResponse", "small"));
  await truncating.processEvent(event("RequestResponse", "x".repeat(2000)));
  expect(got[0]!.requestObject).toEqual({ data: { blob: "small" } });
  expect(got[1]!.requestObject).toBeUndefined();
  expect(got[1]!.responseObject).toBeUndefined();
  expect(got[1]!.annotations).toEqual({ "audit.k8s.io/truncated": "true" });
  expect(errors).toEqual([]);
});

test("truncate backend: an event still too large after truncation is dropped with an error", async () => {
  const { sink, got } = recorder();
  const errors: Error[] = [];
  const truncating = truncatingSink(sink, { maxEventSize: 50, maxBatchSize: 10_000 }, (error) => errors.push(error));
  expect(await truncating.processEvent(event("Metadata", "x"))).toBe(true);
  expect(got).toEqual([]);
  expect(errors[0]!.message).toContain("event is too large even after truncation");
});

test("AuditTruncateOptions.Validate: kube's messages", () => {
  expect(truncateProblems("log", { maxEventSize: 0, maxBatchSize: 10 })).toEqual([
    "invalid audit truncate log max event size 0, must be a positive number",
  ]);
  expect(truncateProblems("webhook", { maxEventSize: 100, maxBatchSize: 10 })).toEqual([
    "invalid audit truncate webhook max batch size 10, must be greater than max event size (100)",
  ]);
});
