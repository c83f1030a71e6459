/**
 * CertificateSigningRequests end to end with the real kubectl and openssl: the documented flow that gives a new
 * user a kubeconfig (csrStrategy, CertificateApproval, csrsigning), deny, a forged requester, and kubelet TLS
 * bootstrap with a bootstrap token (csrapproving's nodeclient/selfnodeclient SubjectAccessReviews).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { type CommandResult, runKubectl, startServer, type TestServer } from "./harness.ts";
import { kubectlWith, scratchDir, writeUserKubeconfig } from "./_authn.ts";
import { createUser } from "./_users.ts";
import type { Json } from "./_api.ts";

const run = promisify(execFile);
let server: TestServer;
let scratch: Awaited<ReturnType<typeof scratchDir>>;

beforeAll(async () => {
  scratch = await scratchDir();
  server = await startServer(["--authorization-mode=Node,RBAC", "--enable-bootstrap-token-auth"]);
});

afterAll(async () => {
  await server?.stop();
  await scratch?.remove();
});

/** openssl key + CSR for `subject` (e.g. "/CN=jane/O=dev"); `ec` for a P-256 key as a kubelet makes. */
async function opensslRequest(name: string, subject: string, ec = false): Promise<{ keyFile: string; csrPem: string }> {
  const keyFile = join(scratch.path, `${name}.key`);
  const csrFile = join(scratch.path, `${name}.csr`);
  if (ec) await run("openssl", ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", keyFile]);
  else await run("openssl", ["genrsa", "-out", keyFile, "2048"]);
  await run("openssl", ["req", "-new", "-key", keyFile, "-subj", subject, "-out", csrFile]);
  return { keyFile, csrPem: await readFile(csrFile, "utf8") };
}

function csrManifest(name: string, csrPem: string, signerName: string, usages: string[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    apiVersion: "certificates.k8s.io/v1",
    kind: "CertificateSigningRequest",
    metadata: { name },
    spec: { request: Buffer.from(csrPem).toString("base64"), signerName, usages, ...extra },
  });
}

async function getCSR(name: string, kubeconfig = server.kubeconfig): Promise<Json> {
  const result = await kubectlWith(kubeconfig, ["get", "csr", name, "-o", "json"]);
  expect(result.stderr).toBe("");
  return JSON.parse(result.stdout);
}

/** Polls until the request carries a certificate (issued by csrsigning); returns it as PEM. */
async function issuedCertificate(name: string, kubeconfig = server.kubeconfig): Promise<string> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const certificate = (await getCSR(name, kubeconfig)).status?.certificate;
    if (certificate) return Buffer.from(certificate, "base64").toString("utf8");
    await Bun.sleep(100);
  }
  throw new Error(`no certificate issued for ${name}: ${JSON.stringify(await getCSR(name))}`);
}

function createAs(kubeconfig: string, manifest: string): Promise<CommandResult> {
  return runKubectl(["--kubeconfig", kubeconfig, "create", "-f", "-"], manifest);
}

/** A kubeconfig for the admin's cluster whose user is the given key and issued certificate. */
function certificateKubeconfig(name: string, certPem: string, keyPem: string): Promise<string> {
  return writeUserKubeconfig(server, scratch.path, name, {
    "client-certificate-data": Buffer.from(certPem).toString("base64"),
    "client-key-data": Buffer.from(keyPem).toString("base64"),
  });
}

test("a new user gets a working kubeconfig: openssl CSR → kubectl create → kubectl certificate approve → issued certificate authenticates", async () => {
  const { keyFile, csrPem } = await opensslRequest("jane", "/CN=jane/O=dev");
  const created = await server.kubectl(["create", "-f", "-"], {
    stdin: csrManifest("jane", csrPem, "kubernetes.io/kube-apiserver-client", ["client auth"], { expirationSeconds: 86400 }),
  });
  expect(created.stderr).toBe("");
  const approved = await server.kubectl(["certificate", "approve", "jane"]);
  expect(approved.stdout.trim()).toBe("certificatesigningrequest.certificates.k8s.io/jane approved");
  const csr = await getCSR("jane");
  expect(csr.spec.username).toBe("admin");
  expect(csr.status.conditions[0]).toMatchObject({ type: "Approved", status: "True", reason: "KubectlApprove" });

  const kubeconfig = await certificateKubeconfig("jane", await issuedCertificate("jane"), await readFile(keyFile, "utf8"));
  const row = (await server.kubectl(["get", "csr", "jane", "--no-headers"])).stdout.split(/\s+/);
  expect([row[0], row[2], row[3], row[4], row[5]]).toEqual([
    "jane",
    "kubernetes.io/kube-apiserver-client",
    "admin",
    "24h",
    "Approved,Issued",
  ]);
  const forbidden = await kubectlWith(kubeconfig, ["get", "secrets", "-n", "default"]);
  expect(forbidden.stderr).toContain('User "jane" cannot list resource "secrets" in API group "" in the namespace "default"');
  await server.kubectl(["create", "rolebinding", "jane-view", "-n", "default", "--clusterrole=view", "--group=dev"]);
  const allowed = await kubectlWith(kubeconfig, ["get", "configmaps", "-n", "default", "-o", "name"]);
  expect({ code: allowed.code, stderr: allowed.stderr }).toEqual({ code: 0, stderr: "" });
});

test("kubectl certificate deny marks the request Denied; approving it as well is 422 and changes nothing", async () => {
  const { csrPem } = await opensslRequest("mallory", "/CN=mallory");
  await server.kubectl(["create", "-f", "-"], {
    stdin: csrManifest("mallory", csrPem, "kubernetes.io/kube-apiserver-client", ["client auth"]),
  });
  const denied = await server.kubectl(["certificate", "deny", "mallory"]);
  expect(denied.stdout.trim()).toBe("certificatesigningrequest.certificates.k8s.io/mallory denied");
  const csr = await getCSR("mallory");
  expect(csr.status.conditions.map((c: Json) => [c.type, c.reason])).toEqual([["Denied", "KubectlDeny"]]);

  csr.status.conditions.push({ type: "Approved", status: "True", reason: "Sneaky" });
  const response = await server.request("PUT", "/apis/certificates.k8s.io/v1/certificatesigningrequests/mallory/approval", {
    body: JSON.stringify(csr),
    headers: { "content-type": "application/json" },
  });
  const status = await response.json();
  expect(response.status).toBe(422);
  expect(status.message).toContain("Approved and Denied conditions are mutually exclusive");
  const after = await getCSR("mallory");
  expect([after.status.conditions.length, after.status.certificate]).toEqual([1, undefined]);
});

test("a forged spec.username/groups is replaced by the requester (csrStrategy.PrepareForCreate)", async () => {
  const bob = await createUser(server, "bob");
  await server.kubectl(["create", "clusterrolebinding", "bob-csr", "--clusterrole=system:node-bootstrapper", "--user=bob"]);
  const { csrPem } = await opensslRequest("forged", "/CN=bob");
  const created = await bob.kubectl(["create", "-f", "-"], {
    stdin: csrManifest("forged", csrPem, "kubernetes.io/kube-apiserver-client", ["client auth"], {
      username: "admin",
      groups: ["system:masters"],
      uid: "x",
    }),
  });
  expect(created.stderr).toBe("");
  const csr = await getCSR("forged");
  expect([csr.spec.username, csr.spec.groups, csr.spec.uid]).toEqual(["bob", ["system:authenticated"], undefined]);
});

test("only the approval subresource approves, only with approve on the signer (CertificateApproval); issuing needs sign (CertificateSigning)", async () => {
  const carol = await createUser(server, "carol");
  await server.kubectl([
    "create",
    "clusterrole",
    "csr-approver",
    "--verb=get,update",
    "--resource=certificatesigningrequests,certificatesigningrequests/approval,certificatesigningrequests/status",
  ]);
  await server.kubectl(["create", "clusterrolebinding", "carol-approver", "--clusterrole=csr-approver", "--user=carol"]);
  const { csrPem } = await opensslRequest("needs-signer", "/CN=dave");
  await server.kubectl(["create", "-f", "-"], {
    stdin: csrManifest("needs-signer", csrPem, "kubernetes.io/kube-apiserver-client", ["client auth"]),
  });
  // An Approved condition written through the main resource is dropped (csrStrategy.PrepareForUpdate keeps status).
  const current = await getCSR("needs-signer");
  const viaMain = await server.request("PUT", "/apis/certificates.k8s.io/v1/certificatesigningrequests/needs-signer", {
    body: JSON.stringify({ ...current, status: { conditions: [{ type: "Approved", status: "True", reason: "Main" }] } }),
    headers: { "content-type": "application/json" },
  });
  expect(viaMain.status).toBe(200);
  expect((await viaMain.json()).status).toEqual({});
  const refused = await carol.kubectl(["certificate", "approve", "needs-signer"]);
  expect(refused.stderr).toContain(
    'certificatesigningrequests.certificates.k8s.io "needs-signer" is forbidden: user not permitted to approve requests with signerName "kubernetes.io/kube-apiserver-client"',
  );
  expect((await getCSR("needs-signer")).status.conditions).toBeUndefined();
  await server.kubectl([
    "create",
    "clusterrolebinding",
    "carol-signer",
    "--clusterrole=system:certificates.k8s.io:kube-apiserver-client-approver",
    "--user=carol",
  ]);
  const approved = await carol.kubectl(["certificate", "approve", "needs-signer"]);
  expect(approved.stderr).toBe("");
  // Issuing through /status needs `sign` on the signer (CertificateSigning); no controller signs example.com/custom.
  const custom = await opensslRequest("custom", "/CN=frank");
  await server.kubectl(["create", "-f", "-"], { stdin: csrManifest("custom", custom.csrPem, "example.com/custom", ["client auth"]) });
  await server.kubectl(["certificate", "approve", "custom"]);
  const toIssue = await getCSR("custom");
  toIssue.status.certificate = Buffer.from(await readFile(join(server.dataDir, "ca.crt"))).toString("base64");
  const signed = await carol.kubectl(["replace", "--subresource=status", "-f", "-"], { stdin: JSON.stringify(toIssue) });
  expect(signed.stderr).toContain(
    'certificatesigningrequests.certificates.k8s.io "custom" is forbidden: user not permitted to sign requests with signerName "example.com/custom"',
  );
  expect((await getCSR("custom")).status.certificate).toBeUndefined();
  // system:masters is refused for this signer at creation (CertificateSubjectRestriction).
  const masters = await opensslRequest("masters", "/CN=eve/O=system:masters");
  const denied = await server.kubectl(["create", "-f", "-"], {
    stdin: csrManifest("masters", masters.csrPem, "kubernetes.io/kube-apiserver-client", ["client auth"]),
  });
  expect(denied.stderr).toContain("use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed");
});

test("kubelet TLS bootstrap: a bootstrap token's node client CSR is auto-approved and signed, and the certificate authenticates as the node", async () => {
  const secret = {
    apiVersion: "v1",
    kind: "Secret",
    type: "bootstrap.kubernetes.io/token",
    metadata: { name: "bootstrap-token-abcdef", namespace: "kube-system" },
    stringData: {
      "token-id": "abcdef",
      "token-secret": "0123456789abcdef",
      "usage-bootstrap-authentication": "true",
      "auth-extra-groups": "system:bootstrappers:kubeadm:default-node-token",
    },
  };
  expect((await server.kubectl(["create", "-f", "-"], { stdin: JSON.stringify(secret) })).stderr).toBe("");
  // kubeadm's bindings (kube-apiserver creates none of them).
  const group = "system:bootstrappers:kubeadm:default-node-token";
  for (
    const [name, role, subject] of [
      ["kubeadm:kubelet-bootstrap", "system:node-bootstrapper", `--group=${group}`],
      ["kubeadm:node-autoapprove-bootstrap", "system:certificates.k8s.io:certificatesigningrequests:nodeclient", `--group=${group}`],
      [
        "kubeadm:node-autoapprove-certificate-rotation",
        "system:certificates.k8s.io:certificatesigningrequests:selfnodeclient",
        "--group=system:nodes",
      ],
    ]
  ) expect((await server.kubectl(["create", "clusterrolebinding", name!, `--clusterrole=${role}`, subject!])).stderr).toBe("");

  const bootstrap = await writeUserKubeconfig(server, scratch.path, "bootstrap", { token: "abcdef.0123456789abcdef" });
  const node = await opensslRequest("worker-1", "/O=system:nodes/CN=system:node:worker-1", true);
  const usages = ["digital signature", "client auth"];
  // Named as a kubelet names it: node-csr-<base64url hash>, not a DNS name.
  const bootstrapName = "node-csr-Zb1UhKoOBHOC3Rhn_fSB-BVMzszQ6ZOhrcSe1nc4zMiE";
  const submitted = await createAs(
    bootstrap,
    csrManifest(bootstrapName, node.csrPem, "kubernetes.io/kube-apiserver-client-kubelet", usages),
  );
  expect(submitted.stderr).toBe("");
  const certPem = await issuedCertificate(bootstrapName, bootstrap);
  const csr = await getCSR(bootstrapName);
  expect(csr.spec.username).toBe("system:bootstrap:abcdef");
  expect(csr.status.conditions[0]).toMatchObject({
    type: "Approved",
    reason: "AutoApproved",
    message: "Auto approving kubelet client certificate after SubjectAccessReview.",
  });

  const nodeKubeconfig = await certificateKubeconfig("worker-1", certPem, await readFile(node.keyFile, "utf8"));
  const nodes = await kubectlWith(nodeKubeconfig, ["get", "nodes", "-o", "name"]);
  expect({ code: nodes.code, stderr: nodes.stderr }).toEqual({ code: 0, stderr: "" });
  const secrets = await kubectlWith(nodeKubeconfig, ["get", "secrets", "-A"]);
  expect(secrets.stderr).toContain('User "system:node:worker-1" cannot list resource "secrets"');

  // Rotation: the node asks for its own new certificate and gets it through selfnodeclient.
  const renewal = await opensslRequest("worker-1-renew", "/O=system:nodes/CN=system:node:worker-1", true);
  expect(
    (await createAs(
      nodeKubeconfig,
      csrManifest("node-csr-worker-1-renew", renewal.csrPem, "kubernetes.io/kube-apiserver-client-kubelet", usages),
    )).stderr,
  ).toBe("");
  await issuedCertificate("node-csr-worker-1-renew");
  expect((await getCSR("node-csr-worker-1-renew")).status.conditions[0].message).toBe(
    "Auto approving self kubelet client certificate after SubjectAccessReview.",
  );
});
