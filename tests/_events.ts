/** An events.k8s.io/v1 Event with every field kube's ValidateEventCreate asks of that version, about Pod `web`. */
export function eventsV1Event(name: string, namespace: string, note: string) {
  return {
    apiVersion: "events.k8s.io/v1",
    kind: "Event",
    metadata: { name, namespace },
    eventTime: "2026-01-01T00:00:00.000000Z",
    reportingController: "example.com/ctl",
    reportingInstance: "ctl-0",
    action: "Scheduling",
    reason: "Scheduled",
    regarding: { kind: "Pod", namespace, name: "web" },
    note,
    type: "Normal",
  };
}
