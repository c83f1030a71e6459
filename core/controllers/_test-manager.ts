/** Starts chosen controllers on a test cluster (unit tests of single controllers). */
import type { Controller } from "./runtime/mod.ts";
import { ControllerManager } from "./runtime/mod.ts";
import type { TestCluster } from "./runtime/testing.ts";

export async function runControllers(cluster: TestCluster, controllers: Controller[]): Promise<ControllerManager> {
  const manager = new ControllerManager(cluster.registry, cluster.catalog, { controllers, settings: cluster.settings, log: () => {} });
  await manager.start();
  return manager;
}
