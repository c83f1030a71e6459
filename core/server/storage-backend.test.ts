import { expect, test } from "bun:test";
import { parseFlags } from "./flags.ts";
import { checkEtcdFlags } from "./storage-backend.ts";

const check = (...argv: string[]) => () => checkEtcdFlags(parseFlags(argv));

test("EtcdOptions.Validate: --storage-media-type takes kube's three media types and names them when refusing another", () => {
  expect(parseFlags([]).storageMediaType).toBe("application/vnd.kubernetes.protobuf");
  for (const mediaType of ["application/json", "application/yaml", "application/vnd.kubernetes.protobuf"]) {
    expect(check("--storage-media-type", mediaType)).not.toThrow();
  }
  expect(check("--storage-media-type", "text/plain")).toThrow(
    '--storage-media-type "text/plain" invalid, allowed values: application/json, application/vnd.kubernetes.protobuf, application/yaml',
  );
});

test("EtcdOptions.Validate: an --etcd-servers-overrides entry not of the form group/resource#servers is refused with kube's message", () => {
  const format = "--etcd-servers-overrides invalid, must be of format: group/resource#servers, where servers are URLs, semicolon separated";
  expect(check("--etcd-servers-overrides", "events#http://127.0.0.1:2379")).toThrow(format);
  expect(check("--etcd-servers-overrides", "/events")).toThrow(format);
  expect(
    check("--etcd-servers", "http://127.0.0.1:2379", "--etcd-servers-overrides", "/events#http://127.0.0.1:2389;http://127.0.0.1:2390"),
  )
    .not.toThrow();
});

test("EtcdOptions.Validate: overrides without --etcd-servers are refused as kube refuses a missing --etcd-servers", () => {
  expect(check("--etcd-servers-overrides", "/events#http://127.0.0.1:2389")).toThrow("--etcd-servers must be specified");
});
