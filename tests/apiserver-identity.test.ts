/**
 * APIServerIdentity (beta, on in 1.26): a kube-apiserver-<id> Lease in kube-system with kube's labels, and
 * apiserverleasegc removing expired identity leases; --feature-gates=APIServerIdentity=false keeps neither.
 */
import { expect, test } from "bun:test";
import { hostname } from "node:os";
import { apiServerId } from "../core/controllers/mod.ts";
import { getJson, sendJson } from "./_api.ts";
import { startServer } from "./harness.ts";

const LEASES = "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases";
const SELECTOR = "labelSelector=apiserver.kubernetes.io%2Fidentity%3Dkube-apiserver";

test("the identity Lease is created with kube's labels and an expired one is collected; the gate turns both off", async () => {
  const first = await startServer(["--feature-gates=APIServerIdentity=false"]);
  const dataDir = first.dataDir;
  try {
    expect((await getJson(first, `${LEASES}?${SELECTOR}`)).items).toEqual([]);
    const stale = await sendJson(first, "POST", LEASES, {
      apiVersion: "coordination.k8s.io/v1",
      kind: "Lease",
      metadata: { name: "kube-apiserver-gone", labels: { "apiserver.kubernetes.io/identity": "kube-apiserver" } },
      spec: { holderIdentity: "gone", leaseDurationSeconds: 3600, renewTime: "2020-01-01T00:00:00.000000Z" },
    });
    expect(stale.status).toBe(201);
  } finally {
    await first.terminate();
  }

  const second = await startServer([], { dataDir });
  try {
    const id = apiServerId(hostname());
    const deadline = Date.now() + 15_000;
    let names: string[] = [];
    for (;;) {
      names = (await getJson(second, `${LEASES}?${SELECTOR}`)).items.map((lease: { metadata: { name: string } }) => lease.metadata.name);
      if ((names.length === 1 && names[0] === id) || Date.now() > deadline) break;
      await Bun.sleep(100);
    }
    expect(names).toEqual([id]);
    const lease = await getJson(second, `${LEASES}/${id}`);
    expect(lease.metadata.labels).toEqual({ "apiserver.kubernetes.io/identity": "kube-apiserver", "kubernetes.io/hostname": hostname() });
    expect(lease.spec.leaseDurationSeconds).toBe(3600);
    expect(lease.spec.holderIdentity.startsWith(`${id}_`)).toBe(true);
  } finally {
    await second.stop();
  }
});
