import { expect, test } from "bun:test";
import { messages, object } from "./_testing.ts";
import { POD_UPDATE_FORBIDDEN, validatePod, validatePodUpdate } from "./pod.ts";

const pod = (spec: Record<string, unknown>) => object({ spec });
const container = { name: "c", image: "nginx" };

test("validatePod() reports each broken container rule with kube's field path and text", () => {
  const cases: [Record<string, unknown>, string[]][] = [
    [{ containers: [] }, ["spec.containers: Required value"]],
    [{ containers: [{ name: "c" }] }, ["spec.containers[0].image: Required value"]],
    [{ containers: [container, container] }, ['spec.containers[1].name: Duplicate value: "c"']],
    [{ containers: [{ ...container, ports: [{ containerPort: 70000 }] }] }, [
      "spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive",
    ]],
    [{ containers: [container], restartPolicy: "Sometimes" }, [
      'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
    ]],
    [{ containers: [container], dnsPolicy: "Bad" }, [
      'spec.dnsPolicy: Unsupported value: "Bad": supported values: "ClusterFirst", "ClusterFirstWithHostNet", "Default", "None"',
    ]],
    [
      { containers: [{ ...container, resources: { requests: { cpu: "2" }, limits: { cpu: "500m" } } }] },
      ['spec.containers[0].resources.requests[cpu]: Invalid value: "2": must be less than or equal to cpu limit'],
    ],
    [{ containers: [{ ...container, name: "Bad_Name" }] }, [
      expect.stringContaining('spec.containers[0].name: Invalid value: "Bad_Name": a lowercase RFC 1123 label'),
    ]],
  ];
  for (const [spec, expected] of cases) expect(messages(validatePod(pod(spec)))).toEqual(expected);
});

test("validatePod() accepts a minimal valid pod", () => {
  expect(validatePod(pod({ containers: [container], restartPolicy: "Always" }))).toEqual([]);
});

test("validatePodUpdate() allows changing images and shortening activeDeadlineSeconds", () => {
  const old = pod({ containers: [container], activeDeadlineSeconds: 100 });
  expect(validatePodUpdate(pod({ containers: [{ ...container, image: "nginx:2" }], activeDeadlineSeconds: 50 }), old)).toEqual([]);
});

test("validatePodUpdate() forbids other spec changes with kube's message", () => {
  const old = pod({ containers: [container], nodeName: "a" });
  const [error] = validatePodUpdate(pod({ containers: [container], nodeName: "b" }), old);
  expect(error.field).toBe("spec");
  expect(error.type).toBe("FieldValueForbidden");
  expect(error.detail.startsWith(`${POD_UPDATE_FORBIDDEN}\n`)).toBe(true);
});

test("validatePodUpdate() refuses raising activeDeadlineSeconds", () => {
  const old = pod({ containers: [container], activeDeadlineSeconds: 10 });
  expect(messages(validatePodUpdate(pod({ containers: [container], activeDeadlineSeconds: 20 }), old))).toEqual([
    "spec.activeDeadlineSeconds: Invalid value: 20: must be less than or equal to previous value",
  ]);
});

test("validatePodUpdate() allows adding tolerations but not removing them", () => {
  const toleration = { key: "k", operator: "Exists" };
  const old = pod({ containers: [container], tolerations: [toleration] });
  expect(validatePodUpdate(pod({ containers: [container], tolerations: [toleration, { key: "j", operator: "Exists" }] }), old)).toEqual([]);
  expect(validatePodUpdate(pod({ containers: [container], tolerations: [] }), old)).toHaveLength(1);
});
