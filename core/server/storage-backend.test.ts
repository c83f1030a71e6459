import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { builtInCatalog } from "../registry/catalog.ts";
import { BUILT_IN_RESOURCE_TYPES } from "../registry/catalog.gen.ts";
import { objectKey } from "../registry/keys.ts";
import { parseFlags } from "./flags.ts";
import { checkEtcdFlags, SQLITE_DEFLATED_KEY_PREFIXES } from "./storage-backend.ts";

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

test("SQLite deflates the keys the registry stores Leases under (objectKey), and no other resource's", () => {
  const catalog = builtInCatalog();
  const lease = catalog.byGroupVersionResource("coordination.k8s.io", "v1", "leases")!;
  const deflated = (key: string) => SQLITE_DEFLATED_KEY_PREFIXES.some((prefix) => key.startsWith(prefix));
  expect(deflated(objectKey(lease, "kube-node-lease", "node-1"))).toBe(true);
  expect(deflated(objectKey(lease, "kube-system", "kube-scheduler"))).toBe(true);
  const others = BUILT_IN_RESOURCE_TYPES.filter((type) => type.resource !== "leases");
  expect(others.filter((type) => deflated(objectKey(type, "kube-system", "kube-scheduler"))).map((type) => type.resource)).toEqual([]);
});

/** The files a module loads when it is imported: its static imports, followed; `import()` only when called. */
function staticImportClosure(entry: string): Set<string> {
  const transpiler = new Bun.Transpiler({ loader: "ts" });
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const { path, kind } of transpiler.scanImports(readFileSync(file, "utf8"))) {
      if (kind === "import-statement" && path.startsWith(".")) visit(resolve(dirname(file), path));
    }
  };
  visit(entry);
  return seen;
}

// `kubun migrate` opens SQLite with SQLITE_DEFLATED_KEY_PREFIXES and needs no resource catalog.
test("storage-backend.ts names the Lease prefix without loading the generated resource catalog", () => {
  const loaded = [...staticImportClosure(resolve(import.meta.dir, "storage-backend.ts"))].map((file) => basename(file));
  expect(loaded).toContain("keys.ts");
  expect(loaded).not.toContain("catalog.gen.ts");
});
