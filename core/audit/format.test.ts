import { expect, test } from "bun:test";
import type { AuditEvent } from "./event.ts";
import { eventJson, microTime, microTimeNow, newEvent, sourceIPs } from "./event.ts";
import { formatEvent } from "./format.ts";

function sample(): AuditEvent {
  const event = newEvent({
    auditID: "id-1",
    level: "Metadata",
    requestURI: "/api/v1/namespaces/ns/pods?limit=5",
    headers: new Headers({ "user-agent": "kubectl/v1.32" }),
    remoteAddress: "::ffff:127.0.0.1",
    attributes: {
      user: { username: "alice", groups: ["devs", "system:authenticated"] },
      verb: "list",
      isResourceRequest: true,
      path: "/api/v1/namespaces/ns/pods",
      apiGroup: "",
      apiVersion: "v1",
      namespace: "ns",
      resource: "pods",
      subresource: "",
      name: "",
    },
    receivedAt: "2026-01-02T03:04:05.120000Z",
  });
  event.annotations = { "z.example.com/last": "1", "authorization.k8s.io/decision": "allow" };
  event.responseStatus = { metadata: {}, code: 200 };
  event.stage = "ResponseComplete";
  return event;
}

test("eventJson: audit.k8s.io/v1 Event fields in the type's order, IPv4-mapped peers printed as IPv4", () => {
  const text = eventJson(sample());
  expect(Object.keys(JSON.parse(text))).toEqual([
    "kind",
    "apiVersion",
    "level",
    "auditID",
    "stage",
    "requestURI",
    "verb",
    "user",
    "sourceIPs",
    "userAgent",
    "objectRef",
    "responseStatus",
    "requestReceivedTimestamp",
    "stageTimestamp",
    "annotations",
  ]);
  expect(JSON.parse(text).objectRef).toEqual({ resource: "pods", namespace: "ns", apiVersion: "v1" });
  expect(JSON.parse(text).sourceIPs).toEqual(["127.0.0.1"]);
  expect(Object.keys(JSON.parse(text).annotations)).toEqual(["authorization.k8s.io/decision", "z.example.com/last"]);
});

test("EventString: the legacy line with Go's RFC3339Nano time and kube's placeholders", () => {
  expect(formatEvent(sample(), "legacy")).toBe(
    `2026-01-02T03:04:05.12Z AUDIT: id="id-1" stage="ResponseComplete" ip="127.0.0.1" method="list" user="alice" groups="\\"devs\\",\\"system:authenticated\\"" as="<self>" asgroups="<lookup>" user-agent="kubectl/v1.32" namespace="ns" uri="/api/v1/namespaces/ns/pods?limit=5" response="200"\n`,
  );
});

test("utilnet.SourceIPs: X-Forwarded-For, then X-Real-Ip if new, then the peer unless it is the last", () => {
  expect(sourceIPs(new Headers({ "x-forwarded-for": "10.0.0.1, 10.0.0.2", "x-real-ip": "10.0.0.2" }), "127.0.0.1")).toEqual([
    "10.0.0.1",
    "10.0.0.2",
    "127.0.0.1",
  ]);
  expect(sourceIPs(new Headers({ "x-forwarded-for": "127.0.0.1" }), "127.0.0.1")).toEqual(["127.0.0.1"]);
});

test("eventJson: objectRef fields filled in later (LogRequestObject) still print in ObjectReference's order, empty ones left out", () => {
  const event = sample();
  event.objectRef!.uid = "u-1";
  event.objectRef!.name = "web";
  event.objectRef!.subresource = "";
  event.impersonatedUser = { username: "bob" };
  const parsed = JSON.parse(eventJson(event));
  expect(Object.keys(parsed.objectRef)).toEqual(["resource", "namespace", "name", "uid", "apiVersion"]);
  expect(Object.keys(parsed).indexOf("impersonatedUser")).toBe(Object.keys(parsed).indexOf("user") + 1);
});

test("metav1.MicroTime: microTimeNow is RFC 3339 UTC with six fractional digits, at the current time", () => {
  const before = Date.now();
  const stamps = Array.from({ length: 3 }, () => microTimeNow());
  for (const stamp of stamps) {
    expect(stamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    expect(Math.abs(Date.parse(stamp) - before)).toBeLessThan(60_000);
  }
  expect([...stamps].sort()).toEqual(stamps);
});

test("metav1.MicroTime (RFC3339Micro): microTime prints a kept epoch-microsecond stamp with six zero-padded digits", () => {
  const second = Date.UTC(2026, 0, 2, 3, 4, 5) * 1000;
  expect(microTime(second + 120)).toBe("2026-01-02T03:04:05.000120Z");
  expect(microTime(second + 999_999)).toBe("2026-01-02T03:04:05.999999Z");
  expect(microTime(second + 1_000_000)).toBe("2026-01-02T03:04:06.000000Z");
});
