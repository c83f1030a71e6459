import { expect, test } from "bun:test";
import { buildReview, readReviewResponse, reviewVersionFor } from "./review.ts";
import type { Invocation } from "./invocation.ts";
import { webhooksOf } from "./webhook.ts";

const [webhook] = webhooksOf({
  apiVersion: "admissionregistration.k8s.io/v1",
  kind: "ValidatingWebhookConfiguration",
  metadata: { name: "c" },
  webhooks: [{ name: "w.example.com" }],
});
const pods = { group: "", version: "v1", resource: "pods" };
const podKind = { group: "", version: "v1", kind: "Pod" };
const invocation: Invocation = { webhook, resource: pods, kind: podKind, subresource: "" };
const pod = { apiVersion: "v1", kind: "Pod", metadata: { name: "p", namespace: "team" } };
const attributes = {
  operation: "CREATE" as const,
  resource: pods,
  kind: podKind,
  subresource: "",
  namespace: "team",
  name: "p",
  object: pod,
  oldObject: null,
  user: { username: "alice", groups: ["devs", "system:authenticated"], extra: { scopes: ["a"] } },
  dryRun: false,
  options: { apiVersion: "meta.k8s.io/v1", kind: "CreateOptions" },
};

test("reviewVersionFor() picks the first version the server knows", () => {
  expect(reviewVersionFor(["v2", "v1beta1", "v1"])).toBe("v1beta1");
  expect(reviewVersionFor(["v1", "v1beta1"])).toBe("v1");
  expect(reviewVersionFor(["v2"])).toBeUndefined();
});

test("buildReview() carries every request field of spec 2.8", () => {
  const review = buildReview("v1beta1", "u-1", invocation, attributes) as { apiVersion: string; request: Record<string, unknown> };
  expect(review.apiVersion).toBe("admission.k8s.io/v1beta1");
  expect(JSON.parse(JSON.stringify(review.request))).toEqual({
    uid: "u-1",
    kind: podKind,
    resource: pods,
    requestKind: podKind,
    requestResource: pods,
    name: "p",
    namespace: "team",
    operation: "CREATE",
    userInfo: { username: "alice", groups: ["devs", "system:authenticated"], extra: { scopes: ["a"] } },
    object: pod,
    oldObject: null,
    dryRun: false,
    options: { apiVersion: "meta.k8s.io/v1", kind: "CreateOptions" },
  });
});

test("buildReview() names a Namespace's own name as the namespace of requests on an existing Namespace", () => {
  const namespaces = { group: "", version: "v1", resource: "namespaces" };
  const review = buildReview("v1", "u", { ...invocation, resource: namespaces }, {
    ...attributes,
    operation: "DELETE",
    resource: namespaces,
    namespace: "",
    name: "team",
    object: null,
  }) as { request: Record<string, unknown> };
  expect(review.request.namespace).toBe("team");
});

test("buildReview() sends an Equivalent hook the object converted to the version it registered for (kube's VersionedAttributes)", () => {
  const hpaV2 = { group: "autoscaling", version: "v2", resource: "horizontalpodautoscalers" };
  const hpaV1 = { ...hpaV2, version: "v1" };
  const hpa = {
    apiVersion: "autoscaling/v2",
    kind: "HorizontalPodAutoscaler",
    metadata: { name: "h", namespace: "team" },
    spec: {
      scaleTargetRef: { kind: "Deployment", name: "d" },
      minReplicas: 1,
      maxReplicas: 3,
      metrics: [{ type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 70 } } }],
    },
  };
  const asV1 = { ...invocation, resource: hpaV1, kind: { group: "autoscaling", version: "v1", kind: "HorizontalPodAutoscaler" } };
  const review = buildReview("v1", "u", asV1, { ...attributes, resource: hpaV2, kind: { ...asV1.kind, version: "v2" }, object: hpa }) as {
    request: { object: Record<string, unknown> };
  };
  expect(review.request.object.apiVersion).toBe("autoscaling/v1");
  expect(review.request.object.spec).toEqual({
    scaleTargetRef: { kind: "Deployment", name: "d" },
    minReplicas: 1,
    maxReplicas: 3,
    targetCPUUtilizationPercentage: 70,
  });
});

const v1Reply = (response: Record<string, unknown>) => ({
  apiVersion: "admission.k8s.io/v1",
  kind: "AdmissionReview",
  response: { uid: "u-1", ...response },
});

test("readReviewResponse() reads the verdict, warnings, patch and audit annotations", () => {
  const result = readReviewResponse(
    "v1",
    "u-1",
    true,
    v1Reply({ allowed: true, warnings: ["careful"], patchType: "JSONPatch", patch: "W10=", auditAnnotations: { k: "v" } }),
  );
  expect(result).toEqual({ allowed: true, status: undefined, patch: "W10=", warnings: ["careful"], auditAnnotations: { k: "v" } });
});

test("readReviewResponse() refuses a reply in another version, with another uid, or without a response", () => {
  expect(() => readReviewResponse("v1", "u-1", false, { ...v1Reply({ allowed: true }), apiVersion: "admission.k8s.io/v1beta1" })).toThrow(
    "expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got admission.k8s.io/v1beta1, Kind=AdmissionReview",
  );
  expect(() => readReviewResponse("v1beta1", "u-1", false, v1Reply({ allowed: true }))).toThrow(
    "expected webhook response of admission.k8s.io/v1beta1",
  );
  expect(() => readReviewResponse("v1", "u-1", false, v1Reply({ uid: "other", allowed: true }))).toThrow(
    'expected response.uid="u-1", got "other"',
  );
  expect(() => readReviewResponse("v1", "u-1", false, { apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview" })).toThrow(
    "webhook response was absent",
  );
});

test("readReviewResponse() tolerates an untyped v1beta1 reply, as kube 1.26 does", () => {
  expect(readReviewResponse("v1beta1", "u-1", false, { response: { allowed: false } }).allowed).toBe(false);
});

test("readReviewResponse() refuses patches from validating webhooks and patches without a JSONPatch type", () => {
  expect(() => readReviewResponse("v1", "u-1", false, v1Reply({ allowed: true, patchType: "JSONPatch", patch: "W10=" }))).toThrow(
    "validating webhook may not return response.patch",
  );
  expect(() => readReviewResponse("v1", "u-1", true, v1Reply({ allowed: true, patch: "W10=" }))).toThrow(
    "webhook returned response.patch but not response.patchType",
  );
  expect(() => readReviewResponse("v1", "u-1", true, v1Reply({ allowed: true, patchType: "MergePatch", patch: "e30=" }))).toThrow(
    'invalid response.patchType of "MergePatch"',
  );
});
