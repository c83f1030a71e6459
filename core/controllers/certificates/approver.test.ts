import { afterEach, expect, test } from "bun:test";
import type { Attributes, Authorizer } from "../../auth/authorizer.ts";
import type { UserInfo } from "../../auth/user.ts";
import type { ControllerManager } from "../runtime/mod.ts";
import { eventually, type TestCluster, testCluster } from "../runtime/testing.ts";
import { runControllers } from "../_test-manager.ts";
import { csrApprovingController } from "./approver.ts";
import { csrObject } from "./_fixtures.ts";
import type { CertificateSigningRequest as CSRFields } from "../../api/certificates/mod.ts";

let cluster: TestCluster | undefined;
let manager: ControllerManager | undefined;
afterEach(async () => {
  await manager?.stop();
  await cluster?.close();
});

const csrs = () =>
  cluster!.registry.store(cluster!.catalog.byGroupVersionResource("certificates.k8s.io", "v1", "certificatesigningrequests")!);
const bootstrapper: UserInfo = { username: "system:bootstrap:abcdef", groups: ["system:bootstrappers", "system:authenticated"] };
const stranger: UserInfo = { username: "mallory", groups: ["system:authenticated"] };
const kubeletClient = {
  signerName: "kubernetes.io/kube-apiserver-client-kubelet",
  usages: ["digital signature", "key encipherment", "client auth"],
};

/**
 * Allows `create certificatesigningrequests/nodeclient` to system:bootstrappers, as kubeadm's binding does, and the
 * controller manager's and the controller's own writes (their bootstrap roles); records the other questions.
 */
function bootstrapAuthorizer(asked: Attributes[]): Authorizer {
  return {
    authorize: (a) => {
      const controllers = ["system:kube-controller-manager", "system:serviceaccount:kube-system:certificate-controller"];
      if (controllers.includes(a.user.username)) return Promise.resolve({ decision: "Allow" });
      asked.push(a);
      const allow = a.user.groups.includes("system:bootstrappers") && a.subresource === "nodeclient" && a.verb === "create" &&
        a.resource === "certificatesigningrequests";
      return Promise.resolve({ decision: allow ? "Allow" : "NoOpinion" });
    },
  };
}

test("sarApprover approves a bootstrapper's kubelet client request after a nodeclient SubjectAccessReview", async () => {
  const asked: Attributes[] = [];
  cluster = await testCluster({ authorizer: bootstrapAuthorizer(asked) });
  manager = await runControllers(cluster, [csrApprovingController]);
  await csrs().create("", await csrObject("node-csr", { commonName: "system:node:n1", organizations: ["system:nodes"] }, kubeletClient), {
    user: bootstrapper,
  });
  const condition = await eventually(async () => ((await csrs().get("", "node-csr")) as CSRFields).status?.conditions?.[0]);
  expect(condition).toMatchObject({
    type: "Approved",
    status: "True",
    reason: "AutoApproved",
    message: "Auto approving kubelet client certificate after SubjectAccessReview.",
  });
  expect(asked[0]).toMatchObject({
    verb: "create",
    apiGroup: "certificates.k8s.io",
    resource: "certificatesigningrequests",
    subresource: "nodeclient",
    user: { username: "system:bootstrap:abcdef" },
  });
});

test("sarApprover leaves a request whose requester the review does not allow, or that is not a kubelet client request", async () => {
  const asked: Attributes[] = [];
  cluster = await testCluster({ authorizer: bootstrapAuthorizer(asked) });
  manager = await runControllers(cluster, [csrApprovingController]);
  await csrs().create("", await csrObject("other", { commonName: "alice", organizations: ["system:nodes"] }, kubeletClient), {
    user: bootstrapper,
  });
  await csrs().create("", await csrObject("stranger", { commonName: "system:node:n2", organizations: ["system:nodes"] }, kubeletClient), {
    user: stranger,
  });
  await eventually(() => asked.some((a) => a.user.username === "mallory"));
  // The CN is not the requester, so only nodeclient is asked; "other" is never recognized.
  expect(asked.filter((a) => a.user.username === "mallory").map((a) => a.subresource)).toEqual(["nodeclient"]);
  expect(asked.some((a) => a.user.username === bootstrapper.username)).toBe(false);
  for (const name of ["other", "stranger"]) expect(((await csrs().get("", name)) as CSRFields).status?.conditions ?? []).toEqual([]);
});
