import { expect, test } from "bun:test";
import { disabledBuiltIns } from "./api-enablement.ts";
import { BUILT_IN_RESOURCE_TYPES } from "./catalog.gen.ts";

const off = (overrides: Record<string, string>) =>
  disabledBuiltIns(BUILT_IN_RESOURCE_TYPES, overrides).map((type) => `${type.group}/${type.version}/${type.resource}`);

test("MergeAPIResourceConfigs: a group/version key turns off every resource of it; a bare key means true", () => {
  expect(off({ "batch/v1": "false" })).toEqual(["batch/v1/cronjobs", "batch/v1/jobs"]);
  expect(off({ "batch/v1": "" })).toEqual([]);
});

test("MergeAPIResourceConfigs: resource keys win over version keys, version keys over api/all", () => {
  expect(off({ "apps/v1/deployments": "false" })).toEqual(["apps/v1/deployments"]);
  const onlyApps = off({ "api/all": "false", "apps/v1": "true", "apps/v1/daemonsets": "false", "api/v1": "true" });
  expect(onlyApps).toContain("apps/v1/daemonsets");
  expect(onlyApps).not.toContain("apps/v1/deployments");
  expect(onlyApps).not.toContain("/v1/pods");
  expect(onlyApps).toContain("batch/v1/jobs");
});

test("groupVersionMatchers: api/beta matches v<N>beta<M> versions only", () => {
  const beta = off({ "api/beta": "false" });
  expect(beta).toContain("flowcontrol.apiserver.k8s.io/v1beta2/flowschemas");
  expect(beta.every((key) => /\/v\d+beta\d+\//.test(key))).toBe(true);
});

test("APIEnablementOptions.Validate and MergeAPIResourceConfigs: kube's start-up errors", () => {
  expect(() => off({ "api/all": "false" })).toThrow("invalid key with only api/all=false");
  expect(() => off({ "foo.example.com/v1": "true", "bar.example.com/v1": "true" })).toThrow(
    "unknown api groups foo.example.com,bar.example.com",
  );
  expect(() => off({ "batch": "false" })).toThrow("runtime-config invalid key batch");
  expect(() => off({ "apps/v9": "true" })).toThrow("group version apps/v9 that has not been registered");
  expect(() => off({ "api/all": "no" })).toThrow("invalid value api/all=no");
  expect(() => off({ "apps/v1": "maybe" })).toThrow(
    'invalid value of apps/v1: maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax',
  );
  expect(() => off({ "apps/v1/Deployments": "false" })).toThrow(
    'invalid key apps/v1/Deployments: group/version/resource and resource is always lowercase plural, not "Deployments"',
  );
});
