import { expect, test } from "bun:test";
import { defaultPodSpec } from "./pod-spec.ts";
import type { Fields } from "./_fields.ts";

function defaulted(spec: Fields): Fields {
  defaultPodSpec(spec);
  return spec;
}

test("defaultPodSpec() fills kube's pod-level defaults", () => {
  expect(defaulted({ containers: [] })).toEqual({
    containers: [],
    dnsPolicy: "ClusterFirst",
    restartPolicy: "Always",
    securityContext: {},
    terminationGracePeriodSeconds: 30,
    schedulerName: "default-scheduler",
  });
});

test("defaultPodSpec() keeps explicit values, treating an empty string as unset", () => {
  const spec = defaulted({
    dnsPolicy: "Default",
    restartPolicy: "",
    securityContext: { runAsUser: 1 },
    terminationGracePeriodSeconds: 0,
    schedulerName: "mine",
  });
  expect(spec).toMatchObject({
    dnsPolicy: "Default",
    restartPolicy: "Always",
    securityContext: { runAsUser: 1 },
    terminationGracePeriodSeconds: 0,
    schedulerName: "mine",
  });
});

test("defaultPodSpec() fills every container's defaults, init and ephemeral ones included", () => {
  const spec = defaulted({
    initContainers: [{ name: "init", image: "busybox" }],
    containers: [{ name: "app", image: "nginx:1.25", ports: [{ containerPort: 80 }] }],
    ephemeralContainers: [{ name: "debug", image: "busybox:latest" }],
  });
  expect(spec.containers).toEqual([{
    name: "app",
    image: "nginx:1.25",
    ports: [{ containerPort: 80, protocol: "TCP" }],
    imagePullPolicy: "IfNotPresent",
    terminationMessagePath: "/dev/termination-log",
    terminationMessagePolicy: "File",
  }]);
  expect(spec.initContainers).toMatchObject([{ imagePullPolicy: "Always", terminationMessagePolicy: "File" }]);
  expect(spec.ephemeralContainers).toMatchObject([{ imagePullPolicy: "Always" }]);
});

test("defaultPodSpec() keeps a container's explicit values", () => {
  const container = {
    name: "app",
    image: "nginx",
    imagePullPolicy: "Never",
    terminationMessagePath: "/tmp/t",
    terminationMessagePolicy: "FallbackToLogsOnError",
    resources: { limits: { cpu: "1" } },
    ports: [{ containerPort: 53, protocol: "UDP" }],
  };
  const spec = defaulted({ containers: [structuredClone(container)] });
  expect(spec.containers).toEqual([container]);
});

test("defaultPodSpec() fills probe, httpGet, grpc and lifecycle handler defaults", () => {
  const spec = defaulted({
    containers: [{
      name: "app",
      image: "nginx",
      livenessProbe: { httpGet: { port: 8080 } },
      readinessProbe: { grpc: { port: 9090 }, periodSeconds: 5 },
      startupProbe: { tcpSocket: { port: 80 }, failureThreshold: 30 },
      lifecycle: { preStop: { httpGet: { port: 80, path: "/stop" } } },
    }],
  }) as { containers: Fields[] };
  const [container] = spec.containers;
  expect(container.livenessProbe).toEqual({
    httpGet: { port: 8080, path: "/", scheme: "HTTP" },
    timeoutSeconds: 1,
    periodSeconds: 10,
    successThreshold: 1,
    failureThreshold: 3,
  });
  expect(container.readinessProbe).toMatchObject({ grpc: { port: 9090, service: "" }, periodSeconds: 5, timeoutSeconds: 1 });
  expect(container.startupProbe).toMatchObject({ failureThreshold: 30, periodSeconds: 10 });
  expect(container.lifecycle).toEqual({ preStop: { httpGet: { port: 80, path: "/stop", scheme: "HTTP" } } });
});

test("defaultPodSpec() points downward-API field references at v1", () => {
  const spec = defaulted({
    containers: [{
      name: "app",
      image: "nginx",
      env: [{ name: "NODE", valueFrom: { fieldRef: { fieldPath: "spec.nodeName" } } }, { name: "PLAIN", value: "x" }],
    }],
  }) as { containers: Fields[] };
  expect(spec.containers[0].env).toEqual([
    { name: "NODE", valueFrom: { fieldRef: { fieldPath: "spec.nodeName", apiVersion: "v1" } } },
    { name: "PLAIN", value: "x" },
  ]);
});

test("defaultPodSpec() copies container ports to host ports under host networking", () => {
  const spec = defaulted({
    hostNetwork: true,
    containers: [{ name: "a", image: "x", ports: [{ containerPort: 80 }, { containerPort: 81, hostPort: 81 }] }],
  }) as {
    containers: Fields[];
  };
  expect(spec.containers[0].ports).toEqual([{ containerPort: 80, hostPort: 80, protocol: "TCP" }, {
    containerPort: 81,
    hostPort: 81,
    protocol: "TCP",
  }]);
  const noHostNetwork = defaulted({ containers: [{ name: "a", image: "x", ports: [{ containerPort: 80 }] }] }) as { containers: Fields[] };
  expect(noHostNetwork.containers[0].ports).toEqual([{ containerPort: 80, protocol: "TCP" }]);
});

test("defaultPodSpec() leaves fields of the wrong JSON type for validation to report", () => {
  const spec = defaulted({ containers: "nope", volumes: [7], restartPolicy: 5 });
  expect(spec).toMatchObject({ containers: "nope", volumes: [7], restartPolicy: 5 });
});
