import { expect, test } from "bun:test";
import { customResourceFieldLabelRules, fieldLabelRules, fieldsOf } from "./field-labels.ts";

test("fieldsOf() gives every kind metadata.name and metadata.namespace", () => {
  expect(fieldsOf("configmaps", { metadata: { name: "c", namespace: "ns" } })).toEqual({
    "metadata.name": "c",
    "metadata.namespace": "ns",
  });
  expect(fieldsOf("clusterroles.rbac.authorization.k8s.io", { metadata: { name: "r" } })).toEqual({
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
  expect(fieldsOf("pods", pod)).toEqual({
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
  expect(fieldsOf("nodes", { metadata: { name: "n" }, spec: { unschedulable: true } })["spec.unschedulable"]).toBe("true");
  expect(fieldsOf("nodes", { metadata: { name: "n" } })["spec.unschedulable"]).toBe("false");
  expect(fieldsOf("replicationcontrollers", { metadata: { name: "r" }, status: { replicas: 3 } })["status.replicas"]).toBe("3");
  expect(fieldsOf("jobs.batch", { metadata: { name: "j" }, status: { succeeded: 2 } })["status.successful"]).toBe("2");
  expect(fieldsOf("jobs.batch", { metadata: { name: "j" } })["status.successful"]).toBe("0");
});

test("fieldsOf() falls back from an event's source component to its reporting controller", () => {
  const event = { metadata: { name: "e" }, involvedObject: { kind: "Pod", name: "p" }, reportingComponent: "kubelet", type: "Normal" };
  const fields = fieldsOf("events", event);
  expect(fields.source).toBe("kubelet");
  expect(fields["involvedObject.kind"]).toBe("Pod");
  const v1 = { metadata: { name: "e" }, regarding: { kind: "Node" }, reportingController: "ctl", deprecatedSource: { component: "src" } };
  expect(fieldsOf("events.events.k8s.io", v1)).toMatchObject({ "involvedObject.kind": "Node", reportingComponent: "ctl", source: "src" });
});

test("fieldLabelRules() maps events.k8s.io spellings onto the core labels", () => {
  const rules = fieldLabelRules("events.events.k8s.io");
  expect(rules.accepted["regarding.name"]).toBe("involvedObject.name");
  expect(rules.accepted.reportingController).toBe("reportingComponent");
  expect(rules.accepted["involvedObject.name"]).toBeUndefined();
  expect(fieldLabelRules("events").accepted["involvedObject.name"]).toBe("involvedObject.name");
});

test("customResourceFieldLabelRules() accepts metadata.namespace only when namespaced", () => {
  expect(Object.keys(customResourceFieldLabelRules(true).accepted)).toEqual(["metadata.name", "metadata.namespace"]);
  expect(Object.keys(customResourceFieldLabelRules(false).accepted)).toEqual(["metadata.name"]);
  expect(customResourceFieldLabelRules(false).reject("spec.x")).toBe("field label not supported: spec.x");
});
