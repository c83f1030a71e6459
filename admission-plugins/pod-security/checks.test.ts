import { expect, test } from "bun:test";
import type { KubeObject } from "../../core/api/types.ts";
import { evaluate } from "./checks.ts";

const LATEST = Infinity;
const restrictedContext = {
  allowPrivilegeEscalation: false,
  capabilities: { drop: ["ALL"] },
  runAsNonRoot: true,
  seccompProfile: { type: "RuntimeDefault" },
};
function pod(spec: Record<string, unknown> = {}, annotations: Record<string, string> = {}): KubeObject {
  return {
    metadata: { name: "p", annotations },
    spec: { containers: [{ name: "c", image: "nginx", securityContext: { ...restrictedContext } }], ...spec },
  };
}
const reasons = (violations: { reason: string; detail: string }[]) => violations.map((v) => `${v.reason} (${v.detail})`);

test("a pod meeting the restricted level has no violations at any level", () => {
  expect(evaluate("restricted", LATEST, pod())).toEqual([]);
  expect(evaluate("baseline", LATEST, pod())).toEqual([]);
});

test("privileged level never reports violations", () => {
  expect(evaluate("privileged", LATEST, pod({ hostNetwork: true }))).toEqual([]);
});

test("baseline checks report kube's texts in check-id order", () => {
  const spec = {
    hostPID: true,
    securityContext: {
      sysctls: [{ name: "kernel.msgmax" }, { name: "net.ipv4.tcp_syncookies" }],
      seLinuxOptions: { type: "spc_t", user: "root" },
      windowsOptions: { hostProcess: true },
    },
    containers: [{
      name: "c",
      image: "x",
      securityContext: {
        procMount: "Unmasked",
        seccompProfile: { type: "Unconfined" },
        capabilities: { add: ["SYS_ADMIN", "CHOWN", "NET_ADMIN"] },
      },
      ports: [{ containerPort: 80, hostPort: 8080 }],
    }],
  };
  expect(reasons(evaluate("baseline", LATEST, pod(spec, { "container.apparmor.security.beta.kubernetes.io/c": "unconfined" })))).toEqual([
    'forbidden AppArmor profile (container.apparmor.security.beta.kubernetes.io/c="unconfined")',
    'non-default capabilities (container "c" must not include "NET_ADMIN", "SYS_ADMIN" in securityContext.capabilities.add)',
    "host namespaces (hostPID=true)",
    'hostPort (container "c" uses hostPort 8080)',
    'procMount (container "c" must not set securityContext.procMount to "Unmasked")',
    'seLinuxOptions (pod set forbidden securityContext.seLinuxOptions: type "spc_t"; user may not be set)',
    'seccompProfile (container "c" must not set securityContext.seccompProfile.type to "Unconfined")',
    "forbidden sysctls (kernel.msgmax)",
    "hostProcess (pod must not set securityContext.windowsOptions.hostProcess=true)",
  ]);
});

test("allowed AppArmor profiles, SELinux types and sysctls pass baseline", () => {
  const spec = { securityContext: { seLinuxOptions: { type: "container_init_t" }, sysctls: [{ name: "net.ipv4.ping_group_range" }] } };
  const annotations = {
    "container.apparmor.security.beta.kubernetes.io/c": "localhost/custom",
    "container.apparmor.security.beta.kubernetes.io/d": "runtime/default",
  };
  expect(evaluate("baseline", LATEST, pod(spec, annotations))).toEqual([]);
});

test("restricted replaces the baseline capability and seccomp checks with its own", () => {
  const containers = [{
    name: "c",
    image: "x",
    securityContext: { ...restrictedContext, capabilities: { add: ["SYS_ADMIN"] }, seccompProfile: { type: "Unconfined" } },
  }];
  expect(reasons(evaluate("restricted", LATEST, pod({ containers })))).toEqual([
    'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]; container "c" must not include "SYS_ADMIN" in securityContext.capabilities.add)',
    'seccompProfile (container "c" must not set securityContext.seccompProfile.type to "Unconfined")',
  ]);
});

test("restricted reports every unmet requirement of a bare pod in kube's order", () => {
  const bare: KubeObject = {
    metadata: { name: "p" },
    spec: {
      containers: [{ name: "a", image: "x" }, { name: "b", image: "x", securityContext: { runAsUser: 0 } }],
      volumes: [{ name: "data", hostPath: { path: "/" } }],
    },
  };
  expect(reasons(evaluate("restricted", LATEST, bare))).toEqual([
    'hostPath volumes (volume "data")',
    'allowPrivilegeEscalation != false (containers "a", "b" must set securityContext.allowPrivilegeEscalation=false)',
    'unrestricted capabilities (containers "a", "b" must set securityContext.capabilities.drop=["ALL"])',
    'restricted volume types (volume "data" uses restricted volume type "hostPath")',
    'runAsNonRoot != true (pod or containers "a", "b" must set securityContext.runAsNonRoot=true)',
    'runAsUser=0 (container "b" must not set runAsUser=0)',
    'seccompProfile (pod or containers "a", "b" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
  ]);
});

test("an explicit runAsNonRoot=false is named before implicit gaps", () => {
  const spec = {
    securityContext: { runAsNonRoot: false },
    containers: [{ name: "c", image: "x", securityContext: { ...restrictedContext, runAsNonRoot: undefined } }],
  };
  expect(reasons(evaluate("restricted", LATEST, pod(spec)))).toEqual([
    "runAsNonRoot != true (pod must not set securityContext.runAsNonRoot=false)",
  ]);
});

test("pod-level runAsNonRoot and seccompProfile cover containers that leave them unset", () => {
  const spec = {
    securityContext: { runAsNonRoot: true, seccompProfile: { type: "Localhost", localhostProfile: "p.json" } },
    containers: [{
      name: "c",
      image: "x",
      securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"], add: ["NET_BIND_SERVICE"] } },
    }],
  };
  expect(evaluate("restricted", LATEST, pod(spec))).toEqual([]);
});

test("older policy versions leave out checks added later", () => {
  const rootPod = pod({ containers: [{ name: "c", image: "x", securityContext: { ...restrictedContext, runAsUser: 0 } }] });
  expect(reasons(evaluate("restricted", 22, rootPod))).toEqual([]);
  expect(reasons(evaluate("restricted", 23, rootPod))).toEqual(['runAsUser=0 (container "c" must not set runAsUser=0)']);
});

test("from v1.25 Windows pods skip the Linux-only restricted checks", () => {
  const windows: KubeObject = {
    metadata: { name: "w" },
    spec: { os: { name: "windows" }, securityContext: { runAsNonRoot: true }, containers: [{ name: "c", image: "x" }] },
  };
  expect(evaluate("restricted", 25, windows)).toEqual([]);
  expect(evaluate("restricted", 24, windows).map((v) => v.reason)).toEqual([
    "allowPrivilegeEscalation != false",
    "unrestricted capabilities",
    "seccompProfile",
  ]);
});
