import { afterEach, expect, test } from "bun:test";
import { Buffer } from "node:buffer";
import { parse } from "yaml";
import type { KubeObject } from "../../api/types.ts";
import type { ControllerManager } from "../runtime/mod.ts";
import { eventually, type TestCluster, testCluster } from "../runtime/testing.ts";
import { runControllers } from "../_test-manager.ts";
import { bootstrapSigner } from "./bootstrap-signer.ts";
import { ensureClusterInfo } from "./cluster-info.ts";
import { detachedSignature } from "./detached-jws.ts";
import { tokenSecret } from "./_token-fixtures.ts";

let cluster: TestCluster | undefined;
let manager: ControllerManager | undefined;
afterEach(async () => {
  await manager?.stop();
  await cluster?.close();
});

const store = (g: string, r: string) => cluster!.registry.store(cluster!.catalog.byGroupVersionResource(g, "v1", r)!);
const clusterInfo = () => store("", "configmaps").get("kube-public", "cluster-info").catch(() => undefined);
const data = (cm: KubeObject | undefined) => (cm?.data ?? {}) as Record<string, string>;
const signatureKeys = async () => Object.keys(data(await clusterInfo())).filter((k) => k.startsWith("jws-")).sort();

test("ensureClusterInfo() creates cluster-info with a cluster-only kubeconfig readable by anonymous clients", async () => {
  cluster = await testCluster();
  await ensureClusterInfo(cluster.registry, cluster.catalog, cluster.settings);
  manager = await runControllers(cluster, [bootstrapSigner]);
  const cm = await eventually(clusterInfo);
  const kubeconfig = parse(data(cm).kubeconfig!);
  expect(kubeconfig.clusters).toEqual([{
    name: "",
    cluster: { server: cluster.settings.serverUrl, "certificate-authority-data": Buffer.from(cluster.settings.caPem).toString("base64") },
  }]);
  expect(kubeconfig.users).toBeNull();
  const binding = await eventually(() =>
    store("rbac.authorization.k8s.io", "rolebindings").get("kube-public", "kubeadm:bootstrap-signer-clusterinfo")
  );
  expect(binding.subjects).toEqual([{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: "system:anonymous" }]);
});

test("signatures follow the signing tokens: added, verified by the token secret, removed with the token or at expiry", async () => {
  cluster = await testCluster();
  await ensureClusterInfo(cluster.registry, cluster.catalog, cluster.settings);
  manager = await runControllers(cluster, [bootstrapSigner]);
  await eventually(clusterInfo);
  const secrets = store("", "secrets");
  const soon = new Date(Date.now() + 1500).toISOString().replace(/\.\d+Z$/, "Z");
  await secrets.create("kube-system", tokenSecret("signer", "0123456789abcdef", { "usage-bootstrap-signing": "true" }));
  await secrets.create("kube-system", tokenSecret("expiry", "0123456789abcdef", { "usage-bootstrap-signing": "true", expiration: soon }));
  await secrets.create("kube-system", tokenSecret("authnx", "0123456789abcdef", { "usage-bootstrap-authentication": "true" }));
  await secrets.create(
    "kube-system",
    tokenSecret("oldone", "0123456789abcdef", { "usage-bootstrap-signing": "true", expiration: "2020-01-01T00:00:00Z" }),
  );
  await eventually(async () => (await signatureKeys()).join() === "jws-kubeconfig-expiry,jws-kubeconfig-signer");
  const cm = data(await clusterInfo());
  expect(cm["jws-kubeconfig-signer"]).toBe(await detachedSignature(cm.kubeconfig!, "signer", "0123456789abcdef"));
  await eventually(async () => (await signatureKeys()).join() === "jws-kubeconfig-signer", 4000);
  await secrets.delete("kube-system", "bootstrap-token-signer");
  await eventually(async () => (await signatureKeys()).length === 0);
});

test("a changed kubeconfig is signed again", async () => {
  cluster = await testCluster();
  await ensureClusterInfo(cluster.registry, cluster.catalog, cluster.settings);
  manager = await runControllers(cluster, [bootstrapSigner]);
  await eventually(clusterInfo);
  await store("", "secrets").create("kube-system", tokenSecret("signer", "0123456789abcdef", { "usage-bootstrap-signing": "true" }));
  await eventually(async () => (await signatureKeys()).length === 1);
  await store("", "configmaps").update(
    "kube-public",
    "cluster-info",
    (live) => ({ ...live!, data: { ...data(live!), kubeconfig: "changed" } }),
  );
  const expected = await detachedSignature("changed", "signer", "0123456789abcdef");
  await eventually(async () => data(await clusterInfo())["jws-kubeconfig-signer"] === expected);
});
