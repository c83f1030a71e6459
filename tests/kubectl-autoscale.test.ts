/** autoscaling/v1 served beside v2 over one stored HorizontalPodAutoscaler, as kube-apiserver 1.26 serves them. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";
import { getJson, openWatch, sendJson } from "./_api.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await kubectlOk(server, ["create", "deployment", "d", "--image=nginx"]);
});
afterAll(async () => {
  await server?.stop();
});

const V1 = "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers";
const V2 = "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers";

test("kubectl autoscale (posts autoscaling/v1) creates an HPA kubectl get shows through autoscaling/v2", async () => {
  expect(await kubectlOk(server, ["autoscale", "deployment", "d", "--min=2", "--max=5", "--cpu-percent=80"])).toContain(
    "horizontalpodautoscaler.autoscaling/d autoscaled",
  );
  const table = (await kubectlOk(server, ["get", "hpa"])).split("\n");
  expect(table[0].split(/\s+/)).toEqual(["NAME", "REFERENCE", "TARGETS", "MINPODS", "MAXPODS", "REPLICAS", "AGE"]);
  expect(table[1].split(/\s+/).slice(0, 6)).toEqual(["d", "Deployment/d", "<unknown>/80%", "2", "5", "0"]);
  const asV2 = JSON.parse(await kubectlOk(server, ["get", "hpa", "d", "-o", "json"]));
  expect(asV2.apiVersion).toBe("autoscaling/v2");
  expect(asV2.spec).toEqual({
    scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "d" },
    minReplicas: 2,
    maxReplicas: 5,
    metrics: [{ type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 80 } } }],
  });
  const asV1 = await getJson(server, `${V1}/d`);
  expect(asV1.apiVersion).toBe("autoscaling/v1");
  expect(asV1.spec.targetCPUUtilizationPercentage).toBe(80);
  expect(asV1.metadata.resourceVersion).toBe(asV2.metadata.resourceVersion);
});

test("autoscaling/v1 is discovered beside the preferred v2, with the same storage version hash", async () => {
  expect((await kubectlOk(server, ["api-versions"])).split("\n")).toEqual(expect.arrayContaining(["autoscaling/v1", "autoscaling/v2"]));
  const group = await getJson(server, "/apis/autoscaling");
  expect(group.preferredVersion.version).toBe("v2");
  const hashes = await Promise.all(["v1", "v2"].map(async (version) => {
    const list = await getJson(server, `/apis/autoscaling/${version}`);
    return list.resources.find((r: { name: string }) => r.name === "horizontalpodautoscalers").storageVersionHash;
  }));
  expect(hashes[0]).toBe(hashes[1]);
});

test("v2 metrics and behavior v1 cannot express survive a v1 read-modify-write (kube's autoscaling.alpha.kubernetes.io annotations)", async () => {
  const created = await sendJson(server, "POST", V2, {
    apiVersion: "autoscaling/v2",
    kind: "HorizontalPodAutoscaler",
    metadata: { name: "multi" },
    spec: {
      scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "d" },
      maxReplicas: 4,
      metrics: [
        { type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 50 } } },
        { type: "Pods", pods: { metric: { name: "qps" }, target: { type: "AverageValue", averageValue: "10" } } },
      ],
      behavior: { scaleDown: { stabilizationWindowSeconds: 60 } },
    },
  });
  expect(created.status).toBe(201);
  const v1 = await getJson(server, `${V1}/multi`);
  expect(v1.spec.targetCPUUtilizationPercentage).toBe(50);
  expect(JSON.parse(v1.metadata.annotations["autoscaling.alpha.kubernetes.io/metrics"])).toEqual([{
    type: "Pods",
    pods: { metricName: "qps", targetAverageValue: "10" },
  }]);
  expect(JSON.parse(v1.metadata.annotations["autoscaling.alpha.kubernetes.io/behavior"]).ScaleDown.StabilizationWindowSeconds).toBe(60);
  v1.spec.maxReplicas = 6;
  expect((await sendJson(server, "PUT", `${V1}/multi`, v1)).status).toBe(200);
  const v2 = await getJson(server, `${V2}/multi`);
  expect(v2.metadata.annotations).toBeUndefined();
  expect(v2.spec.maxReplicas).toBe(6);
  expect(v2.spec.metrics.map((m: { type: string }) => m.type)).toEqual(["Pods", "Resource"]);
  expect(v2.spec.behavior.scaleDown.stabilizationWindowSeconds).toBe(60);
});

test("a v1 watch sees v2 writes in the v1 shape", async () => {
  const list = await getJson(server, V1);
  const watch = await openWatch(server, `${V1}?watch=1&resourceVersion=${list.metadata.resourceVersion}`);
  await kubectlOk(server, ["patch", "hpa", "d", "--type=merge", "-p", '{"spec":{"maxReplicas":7}}']);
  const [event] = await watch.until((e) => e.object.metadata.name === "d");
  expect(event.type).toBe("MODIFIED");
  expect(event.object.apiVersion).toBe("autoscaling/v1");
  expect(event.object.spec).toMatchObject({ maxReplicas: 7, targetCPUUtilizationPercentage: 80 });
  await watch.close();
});

test("autoscaling/v1 HPAs are served as Tables with kube's printHorizontalPodAutoscaler columns (MinPods a string)", async () => {
  const response = await server.request("GET", `${V1}/d`, { headers: { Accept: "application/json;as=Table;v=v1;g=meta.k8s.io" } });
  expect(response.status).toBe(200);
  const table = await response.json();
  expect(table.columnDefinitions.map((c: { name: string }) => c.name)).toEqual([
    "Name",
    "Reference",
    "Targets",
    "MinPods",
    "MaxPods",
    "Replicas",
    "Age",
  ]);
  expect(table.rows[0].cells.slice(0, 6)).toEqual(["d", "Deployment/d", "<unknown>/80%", "2", 7, 0]);
});

test("autoscaling/v1 HPAs are served as protobuf and documented in /openapi/v3 (kubectl explain)", async () => {
  const protobuf = await server.request("GET", `${V1}/d`, { headers: { Accept: "application/vnd.kubernetes.protobuf" } });
  expect(protobuf.status).toBe(200);
  expect(protobuf.headers.get("Content-Type")).toBe("application/vnd.kubernetes.protobuf");
  const bytes = new Uint8Array(await protobuf.arrayBuffer());
  expect(new TextDecoder().decode(bytes)).toContain("autoscaling/v1");
  const explained = await kubectlOk(server, ["explain", "hpa.spec", "--api-version=autoscaling/v1"]);
  expect(explained).toContain("targetCPUUtilizationPercentage");
});
