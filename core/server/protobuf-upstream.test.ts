/**
 * What the server writes in protobuf decodes with kube's own 1.26 generated.proto files (not our generated
 * descriptors): objects of every built-in kind and Status errors. Needs ../shared/k8s-api-1.26/proto.
 */
import { expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";
import { newNotFound } from "../api/errors.ts";
import { hasProtobufEncoding } from "../api/protobuf/mod.ts";
import type { KubeObject } from "../api/types.ts";
import { builtInCatalog } from "../registry/catalog.ts";
import { sampleObject } from "../registry/schema-samples.ts";
import { builtInSchemas } from "../schema/lookup.ts";
import { respondError, respondObject } from "./respond.ts";

const PROTO_DIR = fileURLToPath(new URL("../../../shared/k8s-api-1.26/proto", import.meta.url));
const PROTOBUF_ACCEPT = "application/vnd.kubernetes.protobuf,application/json";

function protoFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".proto"));
}

function upstreamRoot(): protobuf.Root {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => join(PROTO_DIR, target);
  return root.loadSync(protoFiles(PROTO_DIR), { keepCase: true });
}

/** kube's naming rule from an OpenAPI definition to its proto message (io.k8s.api... → k8s.io.api..., dashes → underscores). */
function messageNameOf(definition: string): string {
  return definition.replace(/^io\.k8s\./, "k8s.io.").replaceAll("-", "_");
}

/** Splits the k8s\0 envelope with the upstream runtime.Unknown. */
function unwrap(root: protobuf.Root, bytes: Uint8Array): { typeMeta: Record<string, string>; raw: Uint8Array } {
  expect([...bytes.subarray(0, 4)]).toEqual([0x6b, 0x38, 0x73, 0x00]);
  return root.lookupType("k8s.io.apimachinery.pkg.runtime.Unknown").decode(bytes.subarray(4)) as unknown as {
    typeMeta: Record<string, string>;
    raw: Uint8Array;
  };
}

async function bodyBytes(response: Response): Promise<Uint8Array> {
  expect(response.headers.get("content-type")).toBe("application/vnd.kubernetes.protobuf");
  return new Uint8Array(await response.arrayBuffer());
}

const apiVersionOf = (type: { group: string; version: string }) => (type.group === "" ? type.version : `${type.group}/${type.version}`);

test("objects of every built-in kind the server writes in protobuf decode with kube's generated.proto, every field known to it", async () => {
  if (!existsSync(PROTO_DIR)) {
    console.log(`protobuf upstream check: ${PROTO_DIR} is absent, nothing to decode with`);
    return;
  }
  const root = upstreamRoot();
  const encode = { representation: { format: "protobuf" as const }, pretty: false, includeObject: "Object" as const };
  const types = builtInCatalog().all().filter((type) => hasProtobufEncoding(apiVersionOf(type), type.kind));
  for (const type of types) {
    const sample = sampleObject(builtInSchemas, type) as unknown as KubeObject;
    const { typeMeta, raw } = unwrap(root, await bodyBytes(respondObject(sample, 200, encode)));
    expect(typeMeta).toEqual({ apiVersion: apiVersionOf(type), kind: type.kind });
    const message = root.lookupType(messageNameOf(builtInSchemas.definitionNameFor(type.group, type.version, type.kind)!));
    const decoded = message.decode(raw) as unknown as { metadata: { name?: string } };
    expect({ kind: type.kind, name: decoded.metadata.name }).toEqual({ kind: type.kind, name: sample.metadata.name });
    // Upstream drops fields it does not know while decoding, so re-encoding gives the same bytes only if all were known.
    expect({ kind: type.kind, bytes: [...message.encode(decoded).finish()] }).toEqual({ kind: type.kind, bytes: [...raw] });
  }
});

test("a Status error answered in protobuf decodes with kube's meta/v1 Status", async () => {
  if (!existsSync(PROTO_DIR)) {
    console.log(`protobuf upstream check: ${PROTO_DIR} is absent, nothing to decode with`);
    return;
  }
  const root = upstreamRoot();
  const { typeMeta, raw } = unwrap(
    root,
    await bodyBytes(respondError(newNotFound({ group: "apps", resource: "deployments" }, "web"), PROTOBUF_ACCEPT)),
  );
  expect(typeMeta).toEqual({ apiVersion: "v1", kind: "Status" });
  const statusType = root.lookupType("k8s.io.apimachinery.pkg.apis.meta.v1.Status");
  expect(statusType.toObject(statusType.decode(raw))).toEqual({
    metadata: {},
    status: "Failure",
    message: 'deployments.apps "web" not found',
    reason: "NotFound",
    details: { name: "web", group: "apps", kind: "deployments" },
    code: 404,
  });
});
