import { expect, test } from "bun:test";
import { flowDistinguisher, type FlowSchemaSpec, inMatchingOrder, matchesFlowSchema, type RequestDigest } from "./matching.ts";
import { MANDATORY_FLOW_SCHEMAS, SUGGESTED_FLOW_SCHEMAS } from "../api/flowcontrol-bootstrap.ts";

const request = (fields: Partial<RequestDigest>): RequestDigest => ({
  username: "alice",
  groups: ["system:authenticated"],
  isResourceRequest: true,
  verb: "get",
  apiGroup: "",
  resource: "pods",
  subresource: "",
  namespace: "default",
  path: "/api/v1/namespaces/default/pods/p",
  ...fields,
});

/** The first bootstrap FlowSchema that matches, as kube's classification picks it. */
function classify(digest: RequestDigest): string {
  const schema = inMatchingOrder([...MANDATORY_FLOW_SCHEMAS, ...SUGGESTED_FLOW_SCHEMAS]).find((s) =>
    matchesFlowSchema(digest, s.spec as FlowSchemaSpec)
  );
  return String(schema?.metadata.name);
}

test("kube's bootstrap schemas classify by matchingPrecedence: masters exempt, probes exempt, nodes, leader election, the rest global-default", () => {
  expect(classify(request({ groups: ["system:masters", "system:authenticated"] }))).toBe("exempt");
  expect(classify(request({ isResourceRequest: false, path: "/readyz", verb: "get", groups: ["system:unauthenticated"] }))).toBe("probes");
  expect(classify(request({ isResourceRequest: false, path: "/readyz", verb: "post" }))).toBe("global-default");
  expect(
    classify(
      request({
        username: "system:node:n1",
        groups: ["system:nodes", "system:authenticated"],
        resource: "nodes",
        subresource: "status",
        namespace: "",
      }),
    ),
  )
    .toBe("system-node-high");
  expect(classify(request({ username: "system:node:n1", groups: ["system:nodes", "system:authenticated"] }))).toBe("system-nodes");
  expect(
    classify(
      request({
        username: "system:kube-scheduler",
        apiGroup: "coordination.k8s.io",
        resource: "leases",
        namespace: "kube-system",
        verb: "update",
      }),
    ),
  )
    .toBe("system-leader-election");
  expect(classify(request({ username: "system:kube-scheduler" }))).toBe("kube-scheduler");
  expect(
    classify(request({ username: "system:serviceaccount:kube-system:foo", groups: ["system:serviceaccounts", "system:authenticated"] })),
  )
    .toBe("kube-system-service-accounts");
  expect(classify(request({ username: "system:serviceaccount:apps:foo", groups: ["system:serviceaccounts", "system:authenticated"] })))
    .toBe("service-accounts");
  expect(classify(request({}))).toBe("global-default");
});

test("resource rules: cluster-scoped requests need clusterScope, subresources are matched as resource/subresource", () => {
  const spec: FlowSchemaSpec = {
    rules: [{
      subjects: [{ kind: "User", user: { name: "alice" } }],
      resourceRules: [{ verbs: ["get"], apiGroups: [""], resources: ["pods/log"], namespaces: ["default"] }],
    }],
  };
  expect(matchesFlowSchema(request({ subresource: "log" }), spec)).toBe(true);
  expect(matchesFlowSchema(request({}), spec)).toBe(false);
  expect(matchesFlowSchema(request({ subresource: "log", namespace: "" }), spec)).toBe(false);
  expect(matchesFlowSchema(request({ subresource: "log", username: "bob" }), spec)).toBe(false);
});

test("non-resource URLs: exact, '*', and '/prefix/*' covering the prefix itself", () => {
  const spec = (pattern: string): FlowSchemaSpec => ({
    rules: [{ subjects: [{ kind: "Group", group: { name: "*" } }], nonResourceRules: [{ verbs: ["*"], nonResourceURLs: [pattern] }] }],
  });
  const path = (p: string) => request({ isResourceRequest: false, path: p });
  expect(matchesFlowSchema(path("/metrics"), spec("/metrics"))).toBe(true);
  expect(matchesFlowSchema(path("/debug/pprof/heap"), spec("/debug/*"))).toBe(true);
  expect(matchesFlowSchema(path("/debug"), spec("/debug/*"))).toBe(true);
  expect(matchesFlowSchema(path("/debugger"), spec("/debug/*"))).toBe(false);
  expect(matchesFlowSchema(path("/anything"), spec("*"))).toBe(true);
});

test("flow distinguishers: ByUser is the user name, ByNamespace the namespace, none is empty", () => {
  expect(flowDistinguisher(request({}), { distinguisherMethod: { type: "ByUser" } })).toBe("alice");
  expect(flowDistinguisher(request({}), { distinguisherMethod: { type: "ByNamespace" } })).toBe("default");
  expect(flowDistinguisher(request({}), {})).toBe("");
});
