import { expect, test } from "bun:test";
import { messages, object } from "./_testing.ts";
import {
  validateDaemonSetStatusUpdate,
  validateDeploymentStatusUpdate,
  validateHorizontalPodAutoscalerStatusUpdate,
  validateJobStatusUpdate,
  validatePodDisruptionBudgetStatusUpdate,
  validateReplicaSetStatusUpdate,
  validateStatefulSetStatusUpdate,
} from "./status-updates.ts";

const withStatus = (status: Record<string, unknown>) => object({ status });
const none = withStatus({});

test("ValidateDeploymentStatus: negative counters, counts above replicas, available above ready", () => {
  expect(messages(validateDeploymentStatusUpdate(withStatus({ replicas: -5, unavailableReplicas: -1 }), none))).toEqual([
    "status.replicas: Invalid value: -5: must be greater than or equal to 0",
    "status.unavailableReplicas: Invalid value: -1: must be greater than or equal to 0",
    // Go's counters are never absent: a missing one is 0, which is above replicas -5.
    "status.updatedReplicas: Invalid value: 0: cannot be greater than status.replicas",
    "status.readyReplicas: Invalid value: 0: cannot be greater than status.replicas",
    "status.availableReplicas: Invalid value: 0: cannot be greater than status.replicas",
  ]);
  expect(
    messages(validateDeploymentStatusUpdate(withStatus({ replicas: 1, updatedReplicas: 2, readyReplicas: 1, availableReplicas: 2 }), none)),
  )
    .toEqual([
      "status.updatedReplicas: Invalid value: 2: cannot be greater than status.replicas",
      "status.availableReplicas: Invalid value: 2: cannot be greater than status.replicas",
      "status.availableReplicas: Invalid value: 2: cannot be greater than readyReplicas",
    ]);
  const written = {
    observedGeneration: 2,
    replicas: 3,
    updatedReplicas: 3,
    readyReplicas: 3,
    availableReplicas: 2,
    unavailableReplicas: 1,
  };
  expect(validateDeploymentStatusUpdate(withStatus(written), none)).toEqual([]);
});

test("ValidateDeploymentStatusUpdate: collisionCount may not be decremented or dropped (IsDecremented)", () => {
  const old = withStatus({ collisionCount: 2 });
  expect(messages(validateDeploymentStatusUpdate(withStatus({ collisionCount: 1 }), old))).toEqual([
    "status.collisionCount: Invalid value: 1: cannot be decremented",
  ]);
  expect(messages(validateDeploymentStatusUpdate(none, old))).toEqual(["status.collisionCount: Invalid value: 0: cannot be decremented"]);
  expect(validateDeploymentStatusUpdate(withStatus({ collisionCount: 3 }), old)).toEqual([]);
});

test("ValidateReplicaSetStatus (and ValidateReplicationControllerStatus) checks fullyLabeledReplicas too", () => {
  expect(messages(validateReplicaSetStatusUpdate(withStatus({ replicas: 1, fullyLabeledReplicas: 2, observedGeneration: -1 })))).toEqual([
    "status.observedGeneration: Invalid value: -1: must be greater than or equal to 0",
    "status.fullyLabeledReplicas: Invalid value: 2: cannot be greater than status.replicas",
  ]);
});

test("ValidateStatefulSetStatus names status.readyReplicas in the available check", () => {
  const status = { replicas: 2, readyReplicas: 1, currentReplicas: 3, availableReplicas: 2, collisionCount: 0 };
  expect(messages(validateStatefulSetStatusUpdate(withStatus(status), withStatus({ collisionCount: 1 })))).toEqual([
    "status.currentReplicas: Invalid value: 3: cannot be greater than status.replicas",
    "status.availableReplicas: Invalid value: 2: cannot be greater than status.readyReplicas",
    "status.collisionCount: Invalid value: 0: cannot be decremented",
  ]);
});

test("validateDaemonSetStatus checks each counter is not negative", () => {
  expect(messages(validateDaemonSetStatusUpdate(withStatus({ numberMisscheduled: -1, numberReady: 2 }), none))).toEqual([
    "status.numberMisscheduled: Invalid value: -1: must be greater than or equal to 0",
  ]);
});

test("validateJobStatus: counters and uncountedTerminatedPods UIDs non-empty and unique across both lists", () => {
  const status = { active: -1, ready: -2, uncountedTerminatedPods: { succeeded: ["a", ""], failed: ["a"] } };
  expect(messages(validateJobStatusUpdate(withStatus(status)))).toEqual([
    "status.active: Invalid value: -1: must be greater than or equal to 0",
    "status.ready: Invalid value: -2: must be greater than or equal to 0",
    `status.uncountedTerminatedPods.succeeded[1]: Invalid value: "": must not be empty`,
    `status.uncountedTerminatedPods.failed[0]: Duplicate value: "a"`,
  ]);
});

test("HPA and PDB status writes check their counters", () => {
  expect(messages(validateHorizontalPodAutoscalerStatusUpdate(withStatus({ desiredReplicas: -1 })))).toEqual([
    "status.desiredReplicas: Invalid value: -1: must be greater than or equal to 0",
  ]);
  expect(messages(validatePodDisruptionBudgetStatusUpdate(withStatus({ disruptionsAllowed: -1, expectedPods: 1 })))).toEqual([
    "status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0",
  ]);
});
