import { expect, test } from "bun:test";
import { defaultPullPolicy, imageTag } from "./image-pull-policy.ts";

test("imageTag() reads the tag after the last colon of the last path component", () => {
  expect(imageTag("nginx:1.25")).toBe("1.25");
  expect(imageTag("registry.example.com:5000/team/app:v2")).toBe("v2");
  expect(imageTag("localhost:5000/app")).toBe("latest");
});

test("imageTag() counts an image without tag or digest as latest, a digest-only image as untagged", () => {
  expect(imageTag("nginx")).toBe("latest");
  expect(imageTag(`nginx@sha256:${"a".repeat(64)}`)).toBe("");
  expect(imageTag(`nginx:1.25@sha256:${"a".repeat(64)}`)).toBe("1.25");
});

test("imageTag() gives no tag for references docker cannot parse", () => {
  expect(imageTag("Nginx")).toBe("");
  expect(imageTag("MyTeam/app")).toBe("");
  expect(imageTag("nginx:")).toBe("");
  expect(imageTag("nginx@sha256:short")).toBe("");
  expect(imageTag("a".repeat(64))).toBe("");
  expect(imageTag("")).toBe("");
});

test("defaultPullPolicy() is Always for latest and IfNotPresent for anything else", () => {
  expect(defaultPullPolicy("nginx")).toBe("Always");
  expect(defaultPullPolicy("nginx:latest")).toBe("Always");
  expect(defaultPullPolicy("nginx:1.25")).toBe("IfNotPresent");
  expect(defaultPullPolicy("UPPER")).toBe("IfNotPresent");
  expect(defaultPullPolicy(undefined)).toBe("IfNotPresent");
});
