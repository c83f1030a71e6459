import { expect, test } from "bun:test";
import {
  CORE_EVENT_FIELDS,
  customResourceFields,
  DEFAULT_FIELDS,
  EVENTS_V1_FIELDS,
  fieldsOf,
  JOB_FIELDS,
  NODE_FIELDS,
  POD_FIELDS,
  REPLICATION_CONTROLLER_FIELDS,
} from "./field-labels.ts";

test("fieldsOf() gives every kind metadata.name and metadata.namespace", () => {
  expect(fieldsOf(DEFAULT_FIELDS, { metadata: { name: "c", namespace: "ns" } })).toEqual({
    "metadata.name": "c",
    "metadata.namespace": "ns",
  });
  expect(fieldsOf(DEFAULT_FIELDS, { metadata: { name: "r" } })).toEqual({
    "metadata.name": "r",
    "metadata.namespace": "",
  });
});

test("fieldsOf() extracts pod fields with kube's defaults", () => {
  const pod = {
    metadata: { name: "p", namespace: "ns" },
    spec: { nodeName: "n1", restartPolicy: "Always", schedulerName: "default-scheduler", serviceAccountName: "sa" },
    status: { phase: "Running", podIP: "10.0.0.1", podIPs: [{ ip: "10.0.0.1" }] },
  };
  expect(fieldsOf(POD_FIELDS, pod)).toEqual({
    "metadata.name": "p",
    "metadata.namespace": "ns",
    "spec.nodeName": "n1",
    "spec.restartPolicy": "Always",
    "spec.schedulerName": "default-scheduler",
    "spec.serviceAccountName": "sa",
    "spec.hostNetwork": "false",
    "status.phase": "Running",
    "status.podIP": "10.0.0.1",
    "status.nominatedNodeName": "",
  });
});

test("fieldsOf() renders numbers and booleans as kube's strings", () => {
  expect(fieldsOf(NODE_FIELDS, { metadata: { name: "n" }, spec: { unschedulable: true } })["spec.unschedulable"]).toBe("true");
  expect(fieldsOf(NODE_FIELDS, { metadata: { name: "n" } })["spec.unschedulable"]).toBe("false");
  expect(fieldsOf(REPLICATION_CONTROLLER_FIELDS, { metadata: { name: "r" }, status: { replicas: 3 } })["status.replicas"]).toBe("3");
  expect(fieldsOf(JOB_FIELDS, { metadata: { name: "j" }, status: { succeeded: 2 } })["status.successful"]).toBe("2");
  expect(fieldsOf(JOB_FIELDS, { metadata: { name: "j" } })["status.successful"]).toBe("0");
});

test("fieldsOf() falls back from an event's source component to its reporting controller", () => {
  const event = { metadata: { name: "e" }, involvedObject: { kind: "Pod", name: "p" }, reportingComponent: "kubelet", type: "Normal" };
  const fields = fieldsOf(CORE_EVENT_FIELDS, event);
  expect(fields.source).toBe("kubelet");
  expect(fields["involvedObject.kind"]).toBe("Pod");
  const v1 = { metadata: { name: "e" }, regarding: { kind: "Node" }, reportingController: "ctl", deprecatedSource: { component: "src" } };
  expect(fieldsOf(EVENTS_V1_FIELDS, v1)).toMatchObject({ "involvedObject.kind": "Node", reportingComponent: "ctl", source: "src" });
});

test("EVENTS_V1_FIELDS maps events.k8s.io spellings onto the core labels", () => {
  const rules = EVENTS_V1_FIELDS;
  expect(rules.accepted["regarding.name"]).toBe("involvedObject.name");
  expect(rules.accepted.reportingController).toBe("reportingComponent");
  expect(rules.accepted["involvedObject.name"]).toBeUndefined();
  expect(CORE_EVENT_FIELDS.accepted["involvedObject.name"]).toBe("involvedObject.name");
});

test("customResourceFields() accepts metadata.namespace only when namespaced", () => {
  expect(Object.keys(customResourceFields(true).accepted)).toEqual(["metadata.name", "metadata.namespace"]);
  expect(Object.keys(customResourceFields(false).accepted)).toEqual(["metadata.name"]);
  expect(customResourceFields(false).reject("spec.x")).toBe("field label not supported: spec.x");
});
