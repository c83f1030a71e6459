import { expect, test } from "bun:test";
import { certificateSigningRequestPrinter, roleBindingPrinter } from "./access.ts";
import { columnNames, NOW, object } from "./_test-fixtures.ts";

test("role bindings show the role and, wide, their subjects by kind", () => {
  expect(columnNames(roleBindingPrinter.columns)).toEqual(["Name", "Role", "Age", "Users*", "Groups*", "ServiceAccounts*"]);
  const binding = object("admins", {
    roleRef: { kind: "ClusterRole", name: "admin" },
    subjects: [
      { kind: "User", name: "alice" },
      { kind: "Group", name: "ops" },
      { kind: "User", name: "bob" },
      { kind: "ServiceAccount", name: "deployer", namespace: "ci" },
    ],
  });
  expect(roleBindingPrinter.cells(binding, NOW)).toEqual(["admins", "ClusterRole/admin", "5m", "alice, bob", "ops", "ci/deployer"]);
});

const csrCases: [string, object, string][] = [
  ["Pending without conditions", {}, "Pending"],
  ["Approved,Issued once signed", { conditions: [{ type: "Approved" }], certificate: "LS0t" }, "Approved,Issued"],
  ["Denied over Approved, with Failed", { conditions: [{ type: "Approved" }, { type: "Denied" }, { type: "Failed" }] }, "Denied,Failed"],
];

for (const [behaviour, status, expected] of csrCases) {
  test(`a CSR's condition is ${behaviour}`, () => {
    const csr = object("node-csr", {
      spec: { signerName: "kubernetes.io/kubelet-serving", username: "system:node:n1", expirationSeconds: 86400 },
      status,
    });
    expect(certificateSigningRequestPrinter.cells(csr, NOW)).toEqual([
      "node-csr",
      "5m",
      "kubernetes.io/kubelet-serving",
      "system:node:n1",
      "24h",
      expected,
    ]);
  });
}

test("CSR columns match kube's and missing signer or duration show <none>", () => {
  expect(columnNames(certificateSigningRequestPrinter.columns)).toEqual([
    "Name",
    "Age",
    "SignerName",
    "Requestor",
    "RequestedDuration",
    "Condition",
  ]);
  expect(certificateSigningRequestPrinter.cells(object("x", { spec: {} }), NOW)).toEqual(["x", "5m", "<none>", "", "<none>", "Pending"]);
});
