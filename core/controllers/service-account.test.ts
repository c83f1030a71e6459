import { afterEach, expect, test } from "bun:test";
import { Buffer } from "node:buffer";
import { decodeJwt } from "jose";
import { loadServiceAccountKeys } from "../auth/service-account/keys.ts";
import { rootCAPublisher } from "./root-ca-publisher.ts";
import type { ControllerManager } from "./runtime/mod.ts";
import { eventually, type TestCluster, testCluster } from "./runtime/testing.ts";
import { serviceAccountController } from "./service-account.ts";
import { serviceAccountTokenController } from "./service-account-token.ts";
import { runControllers } from "./_test-manager.ts";
import { openSqliteStorage } from "../storage/sqlite/mod.ts";
import { racingStorage } from "../storage/testing.ts";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

let cluster: TestCluster | undefined;
let manager: ControllerManager | undefined;
afterEach(async () => {
  await manager?.stop();
  await cluster?.close();
});

const store = (r: string) => cluster!.registry.store(cluster!.catalog.byGroupVersionResource("", "v1", r)!);

test("every active namespace gets the default ServiceAccount and kube-root-ca.crt, recreated when deleted", async () => {
  cluster = await testCluster();
  manager = await runControllers(cluster, [serviceAccountController, rootCAPublisher]);
  await store("namespaces").create("", { metadata: { name: "fresh" } });
  await eventually(() => store("serviceaccounts").get("fresh", "default"));
  const cm = await eventually(() => store("configmaps").get("fresh", "kube-root-ca.crt"));
  expect(cm.data).toEqual({ "ca.crt": cluster.settings.caPem });
  await store("serviceaccounts").delete("fresh", "default");
  await eventually(() => store("serviceaccounts").get("fresh", "default"));
  await eventually(() => store("serviceaccounts").get("kube-system", "default"));
});

test("a legacy token Secret is filled with a signed token, and deleted with its ServiceAccount", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "kubun-sa-"));
  const keys = await loadServiceAccountKeys({ dataDir, serviceAccountSigningKeyFile: "", serviceAccountKeyFile: [] });
  cluster = await testCluster({ serviceAccountSigningKey: keys.signing });
  manager = await runControllers(cluster, [serviceAccountTokenController]);
  const account = await store("serviceaccounts").create("default", { metadata: { name: "robot" } });
  await store("secrets").create("default", {
    metadata: { name: "robot-token", annotations: { "kubernetes.io/service-account.name": "robot" } },
    type: "kubernetes.io/service-account-token",
  } as never);
  const filled = await eventually(async () => {
    const secret = (await store("secrets").get("default", "robot-token")) as { data?: Record<string, string> } & {
      metadata: { annotations?: Record<string, string> };
    };
    return secret.data?.token ? secret : undefined;
  });
  expect(filled.metadata.annotations?.["kubernetes.io/service-account.uid"]).toBe(account.metadata.uid as string);
  expect(Buffer.from(filled.data!.namespace!, "base64").toString()).toBe("default");
  const claims = decodeJwt(Buffer.from(filled.data!.token!, "base64").toString());
  expect(claims).toMatchObject({
    iss: "kubernetes/serviceaccount",
    sub: "system:serviceaccount:default:robot",
    "kubernetes.io/serviceaccount/secret.name": "robot-token",
  });
  await store("serviceaccounts").delete("default", "robot");
  await eventually(() => store("secrets").get("default", "robot-token").then(() => false, () => true));
});

test("a legacy token Secret changed before the token is written is filled on its update event, the change kept (generateTokenIfNeeded)", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "kubun-sa-"));
  const keys = await loadServiceAccountKeys({ dataDir, serviceAccountSigningKeyFile: "", serviceAccountKeyFile: [] });
  const storage = racingStorage(openSqliteStorage(":memory:"));
  cluster = await testCluster({ serviceAccountSigningKey: keys.signing }, storage);
  manager = await runControllers(cluster, [serviceAccountTokenController]);
  await store("serviceaccounts").create("default", { metadata: { name: "robot" } });
  const key = store("secrets").key("default", "robot-token");
  // Someone labels the Secret just before the controller's write, which then names a stale resourceVersion.
  storage.raceNextUpdate(
    key,
    () => store("secrets").update("default", "robot-token", (s) => ({ ...s!, metadata: { ...s!.metadata, labels: { team: "a" } } })),
  );
  await store("secrets").create("default", {
    metadata: { name: "robot-token", annotations: { "kubernetes.io/service-account.name": "robot" } },
    type: "kubernetes.io/service-account-token",
  } as never);
  const filled = await eventually(async () => {
    const secret = await store("secrets").get("default", "robot-token") as { data?: Record<string, string> } & {
      metadata: { labels?: object };
    };
    return secret.data?.token ? secret : undefined;
  });
  expect(filled.metadata.labels).toEqual({ team: "a" });
  // The controller's write (409, left for the event), the label, and the controller's write on the labelled Secret.
  expect(storage.updatesOf(key)).toBe(3);
});
