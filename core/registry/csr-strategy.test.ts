import { afterEach, beforeEach, expect, test } from "bun:test";
import { statusErrorOfAsync as failure } from "../api/testing.ts";
import type { KubeObject } from "../api/types.ts";
import { makeCSR, requestField } from "../api/certificates/testing.ts";
import { x509 } from "../api/certificates/mod.ts";
import { openSqliteStorage } from "../storage/sqlite/mod.ts";
import type { Storage } from "../storage/storage.ts";
import { builtInCatalog } from "./catalog.ts";
import { Registry } from "./registry.ts";
import type { ResourceStore } from "./store.ts";

let storage: Storage;
let csrs: ResourceStore;
const alice = { username: "alice", uid: "u-1", groups: ["dev", "system:authenticated"], extra: { scopes: ["a"] } };
const admin = { username: "admin", groups: ["system:masters"] };

async function request(name: string, extra: Record<string, unknown> = {}): Promise<KubeObject> {
  const { csrPem } = await makeCSR({ commonName: name });
  return {
    metadata: { name },
    spec: { request: requestField(csrPem), signerName: "kubernetes.io/kube-apiserver-client", usages: ["client auth"], ...extra },
  };
}

const conditions = (obj: KubeObject) => ((obj.status as { conditions?: { type: string }[] }).conditions ?? []).map((c) => c.type);

beforeEach(() => {
  storage = openSqliteStorage(":memory:");
  const catalog = builtInCatalog();
  csrs = new Registry(storage).store(catalog.byGroupVersionResource("certificates.k8s.io", "v1", "certificatesigningrequests")!);
});
afterEach(() => storage.close());

test("PrepareForCreate replaces a forged spec.username/groups/uid/extra with the requester's", async () => {
  const body = await request("r1", { username: "system:admin", groups: ["system:masters"], uid: "forged", extra: { x: ["y"] } });
  const created = await csrs.create("", body, { user: alice });
  expect(created.spec).toMatchObject({ username: "alice", uid: "u-1", groups: ["dev", "system:authenticated"], extra: { scopes: ["a"] } });
});

test("PrepareForCreate clears the identity fields of a write without a user and empties status", async () => {
  const body = await request("r2", { username: "forged" });
  const created = await csrs.create("", { ...body, status: { conditions: [{ type: "Approved", status: "True" }], certificate: "" } });
  expect((created.spec as { username?: string }).username).toBeUndefined();
  expect(created.status).toEqual({});
});

test("a main-resource update changes neither spec nor status (csrStrategy.PrepareForUpdate)", async () => {
  await csrs.create("", await request("r3"), { user: alice });
  const { object } = await csrs.update(
    "",
    "r3",
    (c) => ({
      ...c!,
      metadata: { ...c!.metadata, labels: { a: "b" } },
      spec: { ...c!.spec as object, username: "x" },
      status: { conditions: [{ type: "Approved", status: "True" }] },
    }),
    { user: admin },
  );
  expect(object.metadata.labels).toEqual({ a: "b" });
  expect((object.spec as { username: string }).username).toBe("alice");
  expect(object.status).toEqual({});
});

test("the approval subresource sets conditions with timestamps and nothing else (csrApprovalStrategy)", async () => {
  await csrs.create("", await request("r4"), { user: alice });
  const { object } = await csrs.update(
    "",
    "r4",
    (c) => ({ ...c!, status: { certificate: "eA==", conditions: [{ type: "Approved", status: "True", reason: "R" }] } }),
    { user: admin, subresource: "approval" },
  );
  expect(conditions(object)).toEqual(["Approved"]);
  const [condition] = (object.status as { conditions: Record<string, string>[] }).conditions;
  expect(condition!.lastUpdateTime).toBeDefined();
  expect(condition!.lastTransitionTime).toBeDefined();
  expect((object.status as { certificate?: string }).certificate).toBeUndefined();
});

test("approval refuses Approved with Denied (validateConditions: mutually exclusive)", async () => {
  await csrs.create("", await request("r5"), { user: alice });
  const error = await failure(
    csrs.update(
      "",
      "r5",
      (c) => ({ ...c!, status: { conditions: [{ type: "Approved", status: "True" }, { type: "Denied", status: "True" }] } }),
      { user: admin, subresource: "approval" },
    ),
  );
  expect(error.code).toBe(422);
  expect(error.message).toContain(
    'status.conditions[1].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive',
  );
});

test("the status subresource keeps approval conditions and refuses setting them (csrStatusStrategy)", async () => {
  await csrs.create("", await request("r6"), { user: alice });
  const error = await failure(
    csrs.update("", "r6", (c) => ({ ...c!, status: { conditions: [{ type: "Approved", status: "True" }] } }), {
      user: admin,
      subresource: "status",
    }),
  );
  expect(error.message).toContain('status.conditions: Forbidden: updates may not add a condition of type "Approved"');
  const { object } = await csrs.update(
    "",
    "r6",
    (c) => ({ ...c!, status: { conditions: [{ type: "Failed", status: "True", reason: "X" }] } }),
    { user: admin, subresource: "status" },
  );
  expect(conditions(object)).toEqual(["Failed"]);
});

test("status.certificate must be PEM certificates and may be set once (validateCertificate)", async () => {
  await csrs.create("", await request("r7"), { user: alice });
  const bad = Buffer.from("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n").toString("base64");
  const error = await failure(
    csrs.update("", "r7", (c) => ({ ...c!, status: { certificate: bad } }), { user: admin, subresource: "status" }),
  );
  expect(error.message).toContain(
    'status.certificate: Invalid value: "<certificate data>": only CERTIFICATE PEM blocks are allowed, found "PRIVATE KEY"',
  );
  const issued = async () => Buffer.from(await selfSigned()).toString("base64");
  const first = await issued();
  const { object } = await csrs.update("", "r7", (c) => ({ ...c!, status: { certificate: first } }), {
    user: admin,
    subresource: "status",
  });
  expect((object.status as { certificate: string }).certificate).toBe(first);
  const second = await issued();
  const again = await failure(
    csrs.update("", "r7", (c) => ({ ...c!, status: { certificate: second } }), { user: admin, subresource: "status" }),
  );
  expect(again.message).toContain("status.certificate: Forbidden: updates may not modify existing certificate content");
});

async function selfSigned(): Promise<string> {
  const algorithm = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" };
  const keys = await crypto.subtle.generateKey(algorithm, true, ["sign", "verify"]) as CryptoKeyPair;
  return (await x509().X509CertificateGenerator.createSelfSigned({ name: "CN=test", keys, signingAlgorithm: algorithm })).toString("pem");
}

test("a status write keeps the stored Approved condition as it was (preserveConditionInstances)", async () => {
  await csrs.create("", await request("r8"), { user: alice });
  await csrs.update(
    "",
    "r8",
    (c) => ({ ...c!, status: { conditions: [{ type: "Approved", status: "True", reason: "First", message: "m" }] } }),
    { user: admin, subresource: "approval" },
  );
  const { object } = await csrs.update("", "r8", (c) => {
    const status = c!.status as { conditions: Record<string, string>[] };
    return {
      ...c!,
      status: { conditions: [{ ...status.conditions[0]!, reason: "Rewritten" }, { type: "Failed", status: "True", reason: "X" }] },
    };
  }, { user: admin, subresource: "status" });
  expect((object.status as { conditions: { type: string; reason: string }[] }).conditions.map((c) => [c.type, c.reason])).toEqual([[
    "Approved",
    "First",
  ], ["Failed", "X"]]);
});

test("an approval keeps the stored transition time of a condition it repeats (populateConditionTimestamps)", async () => {
  await csrs.create("", await request("r9"), { user: alice });
  const first = await csrs.update(
    "",
    "r9",
    (c) => ({ ...c!, status: { conditions: [{ type: "Approved", status: "True", lastTransitionTime: "2020-01-01T00:00:00Z" }] } }),
    { user: admin, subresource: "approval" },
  );
  const [stored] = (first.object.status as { conditions: Record<string, string>[] }).conditions;
  expect(stored!.lastTransitionTime).toBe("2020-01-01T00:00:00Z");
  const { object } = await csrs.update(
    "",
    "r9",
    (c) => ({ ...c!, status: { conditions: [{ type: "Approved", status: "True", reason: "Again" }] } }),
    { user: admin, subresource: "approval" },
  );
  expect((object.status as { conditions: Record<string, string>[] }).conditions[0]!.lastTransitionTime).toBe("2020-01-01T00:00:00Z");
});

test("a kubelet's base64url request name is accepted (ValidateCertificateRequestName)", async () => {
  const created = await csrs.create("", await request("node-csr-Zb1UhKoOBHOC3Rhn_fSB-BVMzszQ6ZOhrcSe1nc4zMiE"), { user: alice });
  expect(created.metadata.name).toBe("node-csr-Zb1UhKoOBHOC3Rhn_fSB-BVMzszQ6ZOhrcSe1nc4zMiE");
});
