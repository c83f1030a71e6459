/**
 * RBAC authorization cost per request with 1,000 roles and 10,000 bindings, printed next to the cost of a
 * plain GET against the compiled server measured in the same run. Not a test.
 * Run: node_modules/.bin/bun bench/rbac.bench.ts (after bash compile.sh).
 */
import { rbacAuthorizer } from "../auth-plugins/authz/rbac/mod.ts";
import type { Attributes } from "../core/auth/authorizer.ts";
import { PolicyIndex } from "../core/auth/rbac/policy-index.ts";
import { startServer } from "../tests/harness.ts";

const ROLES = 1_000;
const BINDINGS = 10_000;
const NAMESPACES = 100;
const USERS = 2_000;
const DECISIONS = 200_000;
const GETS = 2_000;

function policyIndex(): PolicyIndex {
  const index = new PolicyIndex();
  for (let i = 0; i < ROLES; i++) {
    const rules = [0, 1, 2, 3, 4].map((j) => ({
      apiGroups: [j % 2 ? "apps" : ""],
      resources: [`res-${(i + j) % 50}`, "configmaps"],
      verbs: ["get", "list"],
    }));
    index.setClusterRole({ kind: "ClusterRole", metadata: { name: `role-${i}` }, rules });
  }
  for (let i = 0; i < BINDINGS; i++) {
    const subjects = [{ kind: "User", name: `user-${i % USERS}` }, { kind: "Group", name: `group-${Math.floor(i / NAMESPACES) % 50}` }];
    const binding = {
      kind: "RoleBinding",
      metadata: { name: `binding-${i}`, namespace: `ns-${i % NAMESPACES}` },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: `role-${i % ROLES}` },
      subjects,
    };
    index.setBinding("RoleBinding", binding);
  }
  return index;
}

function attributes(i: number, verb: string): Attributes {
  return {
    user: { username: `user-${i % USERS}`, groups: [`group-${Math.floor(i / NAMESPACES) % 50}`, "system:authenticated"] },
    verb,
    isResourceRequest: true,
    path: "",
    apiGroup: "",
    apiVersion: "v1",
    namespace: `ns-${i % NAMESPACES}`,
    resource: "configmaps",
    subresource: "",
    name: "x",
  };
}

async function microsPerDecision(verb: string): Promise<{ micros: number; allowed: number }> {
  const authorizer = rbacAuthorizer(policyIndex());
  let allowed = 0;
  const started = performance.now();
  for (let i = 0; i < DECISIONS; i++) if ((await authorizer.authorize(attributes(i, verb))).decision === "Allow") allowed++;
  return { micros: ((performance.now() - started) * 1000) / DECISIONS, allowed };
}

async function microsPerGet(): Promise<number> {
  const server = await startServer(["--authorization-mode", "RBAC"]);
  try {
    await server.request("POST", "/api/v1/namespaces/default/configmaps", {
      body: JSON.stringify({ metadata: { name: "x" } }),
      headers: { "Content-Type": "application/json" },
    });
    const started = performance.now();
    for (let i = 0; i < GETS; i++) await (await server.request("GET", "/api/v1/namespaces/default/configmaps/x")).text();
    return ((performance.now() - started) * 1000) / GETS;
  } finally {
    await server.stop();
  }
}

const allowedCase = await microsPerDecision("get");
const deniedCase = await microsPerDecision("delete");
const get = await microsPerGet();
console.log(
  `RBAC decision (${ROLES} roles, ${BINDINGS} bindings): allowed ${allowedCase.micros.toFixed(2)} µs, denied ${
    deniedCase.micros.toFixed(2)
  } µs per request`,
);
console.log(
  `plain GET over HTTPS, sequential: ${get.toFixed(0)} µs per request; authorization is ${
    ((deniedCase.micros / get) * 100).toFixed(2)
  }% of it at worst`,
);
if (allowedCase.allowed !== DECISIONS || deniedCase.allowed !== 0) throw new Error("benchmark policy did not decide as built");
