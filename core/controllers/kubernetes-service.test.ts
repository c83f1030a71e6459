import { afterEach, expect, test } from "bun:test";
import { installServiceAllocation, type ServiceAllocation } from "../registry/service-allocation/mod.ts";
import { type TestCluster, testCluster } from "./runtime/testing.ts";
import { keepKubernetesService, type KubernetesServiceKeeper } from "./kubernetes-service.ts";

let cluster: TestCluster | undefined;
let allocation: ServiceAllocation | undefined;
let keeper: KubernetesServiceKeeper | undefined;
afterEach(async () => {
  keeper?.stop();
  allocation?.stop();
  await cluster?.close();
});

const endpoint = { clusterIP: "10.0.0.1", address: "127.0.0.1", port: 6443 };

test("a kubernetes Service whose IP is taken does not fail the start: it is written once the IP is free (RunKubernetesService)", async () => {
  cluster = await testCluster();
  const type = cluster.catalog.byGroupVersionResource("", "v1", "services")!;
  allocation = await installServiceAllocation(cluster.registry, cluster.storage, type, {
    clusterIPRange: "10.0.0.0/24",
    nodePortRange: "30000-32767",
  });
  const services = cluster.registry.store(type);
  await services.create("default", { metadata: { name: "squatter" }, spec: { clusterIP: "10.0.0.1", ports: [{ port: 80 }] } });

  keeper = await keepKubernetesService(cluster.registry, cluster.catalog, endpoint, 1);
  expect(await services.get("default", "kubernetes").then(() => "found", () => "missing")).toBe("missing");

  await services.delete("default", "squatter");
  await keeper.written;
  const kubernetes = await services.get("default", "kubernetes");
  expect(kubernetes.spec).toMatchObject({ clusterIP: "10.0.0.1", ports: [{ name: "https", port: 443, targetPort: 6443 }] });
});
