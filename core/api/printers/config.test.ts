import { expect, test } from "bun:test";
import { configMapPrinter, resourceQuotaPrinter, secretPrinter, serviceAccountPrinter } from "./config.ts";
import { columnNames, NOW, object } from "./_test-fixtures.ts";

test("configmaps count data and binary data keys", () => {
  expect(columnNames(configMapPrinter.columns)).toEqual(["Name", "Data", "Age"]);
  expect(configMapPrinter.cells(object("cfg", { data: { a: "1", b: "2" }, binaryData: { c: "AA==" } }), NOW)).toEqual(["cfg", 3, "5m"]);
  expect(configMapPrinter.cells(object("empty"), NOW)).toEqual(["empty", 0, "5m"]);
});

test("secrets show their type and data count", () => {
  expect(columnNames(secretPrinter.columns)).toEqual(["Name", "Type", "Data", "Age"]);
  expect(secretPrinter.cells(object("tls", { type: "kubernetes.io/tls", data: { "tls.crt": "", "tls.key": "" } }), NOW)).toEqual([
    "tls",
    "kubernetes.io/tls",
    2,
    "5m",
  ]);
});

test("service accounts count their secrets", () => {
  expect(columnNames(serviceAccountPrinter.columns)).toEqual(["Name", "Secrets", "Age"]);
  expect(serviceAccountPrinter.cells(object("default"), NOW)).toEqual(["default", 0, "5m"]);
  expect(serviceAccountPrinter.cells(object("builder", { secrets: [{ name: "t" }] }), NOW)).toEqual(["builder", 1, "5m"]);
});

test("resource quotas split used/hard into request and limit columns, sorted by resource", () => {
  expect(columnNames(resourceQuotaPrinter.columns)).toEqual(["Name", "Age", "Request", "Limit"]);
  const quota = object("compute", {
    status: {
      hard: { pods: "10", "requests.cpu": "2", "limits.memory": "4Gi", "limits.cpu": "4" },
      used: { pods: "3", "requests.cpu": "500m", "limits.cpu": "1" },
    },
  });
  expect(resourceQuotaPrinter.cells(quota, NOW)).toEqual([
    "compute",
    "5m",
    "pods: 3/10, requests.cpu: 500m/2",
    "limits.cpu: 1/4, limits.memory: 0/4Gi",
  ]);
});
