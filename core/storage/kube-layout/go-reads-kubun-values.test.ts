/**
 * kube's own Go code reads kubun's stored values: the real kubectl (k8s.io/api's generated Unmarshal) is handed the
 * bytes kubun would store in etcd as the answer to its create request, and prints what it decoded as Go's JSON.
 */
import { expect, test } from "bun:test";
import { versionConversionFor } from "../../registry/conversion/mod.ts";
import { PROTOBUF_MEDIA_TYPE } from "../../api/protobuf/mod.ts";
import { runKubectlAgainst } from "../../api/protobuf/testdata/kubectl-server.ts";
import { builtInSchemas } from "../../schema/lookup.ts";
import { builtInCatalog } from "../../registry/catalog.ts";
import { objectKey } from "../../registry/keys.ts";
import { sampleObject } from "../../registry/schema-samples.ts";
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

/**
 * JSON with keys sorted and zero values left out: Go's JSON prints a non-pointer field's zero (`{}`, `""`, `0`,
 * `false`, a null time, a zero Quantity "0") where kubun's object has nothing, so only the set values are compared
 * (the filled-in samples set every scalar to a non-zero value). kubectl 1.32's PodResourceClaim no longer has 1.26's
 * `source` (field 2), which its decoder skips, so that member is left out too.
 */
function withoutGoZeroValues(value: unknown, parentKey = ""): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutGoZeroValues(item, parentKey));
  if (value === null || typeof value !== "object") return value;
  const skewed = (key: string) => parentKey === "resourceClaims" && key === "source";
  const members = Object.keys(value).sort().filter((key) => !skewed(key)).map((key) =>
    [key, withoutGoZeroValues((value as Record<string, unknown>)[key], key)] as const
  );
  const isZero = (member: unknown) =>
    member === null || member === "" || member === "0" || member === 0 || member === false ||
    (typeof member === "object" && Object.keys(member).length === 0);
  return Object.fromEntries(members.filter(([, member]) => !isZero(member)));
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
    // A pointer's zero is a set value: Go decodes the Deployment's replicas as a pointer to 0, not nil.
    if (name === "deployment") expect(JSON.parse(printed[0]!).spec.replicas).toBe(0);
  }
}, 60_000);

/**
 * Kinds kubectl creates with typed clients, so their answers are read by k8s.io/api's generated protobuf code (roles
 * and cluster roles are left out: kubectl resolves their rules' resources through discovery first).
 */
const CREATES_BY_RESOURCE: Record<string, string[]> = {
  "core/namespaces": ["create", "namespace", "sample"],
  "core/resourcequotas": ["create", "quota", "sample", "--hard=pods=1", "-n", "ns"],
  "core/serviceaccounts": ["create", "serviceaccount", "sample", "-n", "ns"],
  "apps/deployments": ["create", "deployment", "sample", "--image=x", "-n", "ns"],
  "batch/jobs": ["create", "job", "sample", "--image=x", "-n", "ns"],
  "batch/cronjobs": ["create", "cronjob", "sample", "--image=x", "--schedule=* * * * *", "-n", "ns"],
  "networking.k8s.io/ingresses": ["create", "ingress", "sample", "--rule=a.example.com/=svc:80", "-n", "ns"],
  "policy/poddisruptionbudgets": ["create", "poddisruptionbudget", "sample", "--selector=a=b", "--min-available=1", "-n", "ns"],
  "rbac.authorization.k8s.io/clusterrolebindings": ["create", "clusterrolebinding", "sample", "--clusterrole=x", "--user=u"],
  "rbac.authorization.k8s.io/rolebindings": ["create", "rolebinding", "sample", "--clusterrole=x", "--user=u", "-n", "ns"],
  "scheduling.k8s.io/priorityclasses": ["create", "priorityclass", "sample", "--value=1"],
};

test("kubectl's Go protobuf decoder reads a filled-in object of every kind it creates as kubun stored it", async () => {
  for (const [groupResource, command] of Object.entries(CREATES_BY_RESOURCE)) {
    const type = builtInCatalog().all().find((type) => `${type.group || "core"}/${type.resource}` === groupResource)!;
    const sample = sampleObject(builtInSchemas, type)!;
    const stored = {
      ...sample,
      metadata: { ...(sample.metadata as object), name: "sample", namespace: type.namespaced ? "ns" : undefined },
    };
    const key = objectKey(type, "ns", "sample");
    const value = codec.encode(key, JSON.stringify(stored));
    const printed = await runKubectlAgainst(() => ({ status: 201, contentType: PROTOBUF_MEDIA_TYPE, body: value }), [command], [
      "-o",
      "json",
      "--show-managed-fields",
    ]);
    if (printed === null) return;
    const read = codec.decode(key, value);
    expect({ [groupResource]: withoutGoZeroValues(JSON.parse(printed[0]!)) }).toEqual({
      [groupResource]: withoutGoZeroValues(JSON.parse(read)),
    });
  }
}, 120_000);
