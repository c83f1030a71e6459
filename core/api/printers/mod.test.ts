import { expect, test } from "bun:test";
import { printerFor } from "./mod.ts";
import { NOW, object } from "./_test-fixtures.ts";

const PRINTED: [string, string][] = [
  ["", "pods"],
  ["", "podtemplates"],
  ["", "replicationcontrollers"],
  ["", "services"],
  ["", "endpoints"],
  ["", "nodes"],
  ["", "namespaces"],
  ["", "events"],
  ["", "configmaps"],
  ["", "secrets"],
  ["", "serviceaccounts"],
  ["", "persistentvolumes"],
  ["", "persistentvolumeclaims"],
  ["", "resourcequotas"],
  ["", "componentstatuses"],
  ["apps", "replicasets"],
  ["apps", "deployments"],
  ["apps", "statefulsets"],
  ["apps", "daemonsets"],
  ["apps", "controllerrevisions"],
  ["batch", "jobs"],
  ["batch", "cronjobs"],
  ["autoscaling", "horizontalpodautoscalers"],
  ["policy", "poddisruptionbudgets"],
  ["discovery.k8s.io", "endpointslices"],
  ["networking.k8s.io", "ingresses"],
  ["networking.k8s.io", "ingressclasses"],
  ["networking.k8s.io", "networkpolicies"],
  ["events.k8s.io", "events"],
  ["storage.k8s.io", "storageclasses"],
  ["storage.k8s.io", "csidrivers"],
  ["storage.k8s.io", "csinodes"],
  ["storage.k8s.io", "volumeattachments"],
  ["rbac.authorization.k8s.io", "rolebindings"],
  ["rbac.authorization.k8s.io", "clusterrolebindings"],
  ["coordination.k8s.io", "leases"],
  ["scheduling.k8s.io", "priorityclasses"],
  ["node.k8s.io", "runtimeclasses"],
  ["certificates.k8s.io", "certificatesigningrequests"],
  ["admissionregistration.k8s.io", "mutatingwebhookconfigurations"],
  ["admissionregistration.k8s.io", "validatingwebhookconfigurations"],
  ["flowcontrol.apiserver.k8s.io", "flowschemas"],
  ["flowcontrol.apiserver.k8s.io", "prioritylevelconfigurations"],
  ["apiregistration.k8s.io", "apiservices"],
];

for (const [group, resource] of PRINTED) {
  test(`printerFor(${JSON.stringify(group)}, ${resource}) gives one cell per column even for a bare object`, () => {
    const printer = printerFor(group, resource);
    expect(printer).toBeDefined();
    expect(printer!.cells(object("x"), NOW)).toHaveLength(printer!.columns.length);
  });
}

test("printerFor() leaves kinds kube prints with the default columns to the caller", () => {
  expect(printerFor("rbac.authorization.k8s.io", "roles")).toBeUndefined();
  expect(printerFor("rbac.authorization.k8s.io", "clusterroles")).toBeUndefined();
  expect(printerFor("", "limitranges")).toBeUndefined();
  expect(printerFor("apiextensions.k8s.io", "customresourcedefinitions")).toBeUndefined();
  expect(printerFor("example.com", "widgets")).toBeUndefined();
  expect(printerFor("", "toString")).toBeUndefined();
  expect(printerFor("apps", "pods")).toBeUndefined();
});
