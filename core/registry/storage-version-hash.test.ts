import { expect, test } from "bun:test";
import { storageVersionHash } from "./storage-version-hash.ts";

test("storageVersionHash() matches the values kube-apiserver publishes", () => {
  expect(storageVersionHash("", "v1", "Pod")).toBe("xPOwRZ+Yhw8=");
  expect(storageVersionHash("", "v1", "Event")).toBe("r2yiGXH7wu8=");
  expect(storageVersionHash("apps", "v1", "Deployment")).toBe("8aSe+NMegvE=");
  expect(storageVersionHash("autoscaling", "v1", "HorizontalPodAutoscaler")).toBe("oQlkt7f5j/A=");
});
