/**
 * tokencleaner and bootstrapsigner (spec 3.3, 5.13): off by default as in kube, on with
 * `--controllers=*,tokencleaner,bootstrapsigner`; the signed cluster-info verifies with the token.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Buffer } from "node:buffer";
import { createHmac } from "node:crypto";
import { parse } from "yaml";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlUntil } from "./_workloads.ts";

let server: TestServer;
const CLUSTER_INFO = "/api/v1/namespaces/kube-public/configmaps/cluster-info";

beforeAll(async () => {
  server = await startServer(["--controllers=*,tokencleaner,bootstrapsigner", "--authorization-mode=RBAC"]);
});

afterAll(async () => {
  await server?.stop();
});

async function createToken(target: TestServer, id: string, data: Record<string, string>): Promise<void> {
  const secret = {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: `bootstrap-token-${id}`, namespace: "kube-system" },
    type: "bootstrap.kubernetes.io/token",
    stringData: { "token-id": id, "token-secret": "0123456789abcdef", ...data },
  };
  const created = await target.kubectl(["create", "-f", "-"], { stdin: JSON.stringify(secret) });
  expect(created.stderr).toBe("");
}

const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString().replace(/\.\d+Z$/, "Z");

/** What kubeadm join checks: the detached JWS recomputed over the kubeconfig with the token secret, HS256 only. */
function verifies(signature: string, kubeconfig: string, tokenSecret: string): boolean {
  const [header, payload, mac] = signature.split(".");
  if (payload !== "" || JSON.parse(Buffer.from(header!, "base64url").toString()).alg !== "HS256") return false;
  const expected = createHmac("sha256", tokenSecret).update(`${header}.${Buffer.from(kubeconfig).toString("base64url")}`).digest(
    "base64url",
  );
  return expected === mac;
}

test("cluster-info in kube-public is readable anonymously and holds a kubeconfig with only the cluster", async () => {
  // The signer makes it once it runs, shortly after the server answers (and RBAC learns the Role a moment later).
  let response = await server.requestAnonymous("GET", CLUSTER_INFO);
  for (let tries = 0; response.status !== 200 && tries < 200; tries++) {
    await Bun.sleep(50);
    response = await server.requestAnonymous("GET", CLUSTER_INFO);
  }
  expect(response.status).toBe(200);
  const kubeconfig = parse((await response.json()).data.kubeconfig);
  expect(kubeconfig.clusters[0].cluster.server).toBe(server.url);
  expect(Buffer.from(kubeconfig.clusters[0].cluster["certificate-authority-data"], "base64").toString()).toStartWith(
    "-----BEGIN CERTIFICATE-----",
  );
  expect(kubeconfig.users).toBeNull();
});

test("a signing token gets a jws-kubeconfig entry that verifies with the token, removed when the token expires", async () => {
  await createToken(server, "abcdef", { "usage-bootstrap-signing": "true" });
  await createToken(server, "shortl", { "usage-bootstrap-signing": "true", expiration: inSeconds(5) });
  await createToken(server, "nosign", { "usage-bootstrap-authentication": "true" });
  const args = ["get", "configmap", "cluster-info", "-n", "kube-public", "-o", "json"];
  const signed = JSON.parse(await kubectlUntil(server, args, (out) => Object.keys(JSON.parse(out).data).length === 3));
  expect(Object.keys(signed.data).sort()).toEqual(["jws-kubeconfig-abcdef", "jws-kubeconfig-shortl", "kubeconfig"]);
  expect(verifies(signed.data["jws-kubeconfig-abcdef"], signed.data.kubeconfig, "0123456789abcdef")).toBe(true);
  expect(verifies(signed.data["jws-kubeconfig-abcdef"], signed.data.kubeconfig, "fedcba9876543210")).toBe(false);
  await kubectlUntil(server, args, (out) => Object.keys(JSON.parse(out).data).sort().join() === "jws-kubeconfig-abcdef,kubeconfig", 10_000);
  await kubectlUntil(server, ["get", "secrets", "-n", "kube-system", "-o", "name"], (out) => !out.includes("bootstrap-token-shortl"));
  await server.kubectl(["delete", "secret", "bootstrap-token-abcdef", "-n", "kube-system"]);
  await kubectlUntil(server, args, (out) => Object.keys(JSON.parse(out).data).join() === "kubeconfig");
});

test("tokencleaner deletes an expired token Secret; without it the Secret stays (off by default)", async () => {
  await createToken(server, "expird", { expiration: "2020-01-01T00:00:00Z" });
  await kubectlUntil(server, ["get", "secrets", "-n", "kube-system", "-o", "name"], (out) => !out.includes("bootstrap-token-expird"));
  const defaults = await startServer();
  try {
    await createToken(defaults, "expird", { expiration: "2020-01-01T00:00:00Z" });
    await Bun.sleep(500);
    expect((await defaults.kubectl(["get", "secret", "bootstrap-token-expird", "-n", "kube-system", "-o", "name"])).stdout.trim()).toBe(
      "secret/bootstrap-token-expird",
    );
    expect((await defaults.kubectl(["get", "configmap", "cluster-info", "-n", "kube-public"])).code).not.toBe(0);
  } finally {
    await defaults.stop();
  }
});
