/**
 * kube's own Go code reads kubun's stored values: the real kubectl (k8s.io/api's generated Unmarshal) is handed the
 * bytes kubun would store in etcd as the answer to its create request, and prints what it decoded as Go's JSON.
 */
import { expect, test } from "bun:test";
import { versionConversionFor } from "../../registry/conversion/mod.ts";
import { PROTOBUF_MEDIA_TYPE } from "../../api/protobuf/mod.ts";
import { runKubectlAgainst } from "../../api/protobuf/testdata/kubectl-server.ts";
import { kubeValueCodec } from "./mod.ts";
import { FIXTURES } from "./testdata/fixtures.ts";

const codec = kubeValueCodec("application/vnd.kubernetes.protobuf", versionConversionFor);

/** The kubectl commands whose typed clients take the fixture's kind back in protobuf. */
const CREATES: Record<string, string[]> = {
  configmap: ["create", "configmap", "settings", "--from-literal=a=1", "-n", "default"],
  secret: ["create", "secret", "generic", "db-pass", "--from-literal=password=x", "-n", "default"],
  deployment: ["create", "deployment", "web", "--image=nginx:1.25", "-n", "default"],
  service: ["create", "service", "clusterip", "web", "--tcp=80:8080", "-n", "default"],
};

/** JSON with keys sorted and Go's zero-valued members (`{}` structs, null times) left out, which Go's JSON prints. */
function withoutGoZeroValues(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutGoZeroValues);
  if (value === null || typeof value !== "object") return value;
  const members = Object.keys(value).sort().map((key) => [key, withoutGoZeroValues((value as Record<string, unknown>)[key])] as const);
  return Object.fromEntries(
    members.filter(([, member]) => member !== null && !(typeof member === "object" && Object.keys(member).length === 0)),
  );
}

test("kubectl's Go protobuf decoder reads kubun's stored values as the objects kubun stored", async () => {
  for (const [name, command] of Object.entries(CREATES)) {
    const fixture = FIXTURES.find((fixture) => fixture.name === name)!;
    const value = codec.encode(fixture.key, JSON.stringify(fixture.kubun));
    const printed = await runKubectlAgainst(() => ({ status: 201, contentType: PROTOBUF_MEDIA_TYPE, body: value }), [command], [
      "-o",
      "json",
    ]);
    if (printed === null) {
      console.log("go-reads-kubun-values: kubectl or openssl is not installed, nothing to run");
      return;
    }
    expect(`${name}: ${JSON.stringify(withoutGoZeroValues(JSON.parse(printed[0]!)))}`).toBe(
      `${name}: ${JSON.stringify(withoutGoZeroValues(fixture.kubun))}`,
    );
  }
}, 60_000);
