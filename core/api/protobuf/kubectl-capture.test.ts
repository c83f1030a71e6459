/**
 * Decodes request bodies captured from the real kubectl: a loopback HTTPS server records what
 * `kubectl create ...` POSTs (protobuf, as kubectl's typed clients send) and echoes the object as JSON.
 */
import { expect, test } from "bun:test";
import { decodeProtobufObject } from "./codec.ts";
import { PROTOBUF_MEDIA_TYPE } from "./media-types.ts";
import { type KubectlRequest, runKubectlAgainst } from "./testdata/kubectl-server.ts";

/** The bodies kubectl POSTs for each argument list, in order; null when kubectl or openssl is missing. */
async function captureKubectlBodies(commands: string[][]): Promise<KubectlRequest[] | null> {
  const captured: KubectlRequest[] = [];
  const outputs = await runKubectlAgainst(
    (request) => {
      if (request.method !== "POST") {
        const notFound = { kind: "Status", apiVersion: "v1", status: "Failure", reason: "NotFound", code: 404 };
        return { status: 404, contentType: "application/json", body: JSON.stringify(notFound) };
      }
      captured.push(request);
      return { status: 201, contentType: "application/json", body: JSON.stringify(decodeProtobufObject(request.body).object) };
    },
    commands,
    ["-o", "name"],
  );
  return outputs === null ? null : captured;
}

test("bodies kubectl create sends in protobuf decode to the JSON kube would see", async () => {
  const captured = await captureKubectlBodies([
    ["create", "namespace", "x"],
    ["create", "configmap", "c", "--from-literal=a=b", "-n", "x"],
    ["create", "secret", "generic", "s", "--from-literal=k=v", "-n", "x"],
  ]);
  if (captured === null) {
    console.log("kubectl-capture: kubectl or openssl is not installed, nothing to capture");
    return;
  }
  expect(captured.map((c) => c.contentType)).toEqual([PROTOBUF_MEDIA_TYPE, PROTOBUF_MEDIA_TYPE, PROTOBUF_MEDIA_TYPE]);
  const [namespace, configMap, secret] = captured.map((c) => decodeProtobufObject(c.body).object);
  // Go's JSON of the same objects: non-pointer structs present even when empty, a zero time as null.
  expect(namespace).toEqual({
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name: "x", creationTimestamp: null },
    spec: {},
    status: {},
  });
  expect(configMap).toEqual({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "c", namespace: "x", creationTimestamp: null },
    data: { a: "b" },
  });
  expect(secret).toEqual({
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: "s", namespace: "x", creationTimestamp: null },
    data: { k: Buffer.from("v").toString("base64") },
  });
}, 30_000);
