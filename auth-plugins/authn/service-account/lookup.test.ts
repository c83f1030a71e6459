import { expect, test } from "bun:test";
import type { KubeObject, ObjectReference } from "../../../plugins/sdk.ts";
import type { ServiceAccountClaims } from "../../../core/auth/service-account/claims.ts";
import { type ObjectReader, revocationProblem } from "./lookup.ts";

const object = (kind: string, name: string, uid: string, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: "v1",
  kind,
  metadata: { name, namespace: "ns", uid },
  ...extra,
});

/** A reader over `stored` (by resource/name) that answers at once, or with a promise when `later`. */
function reader(stored: Map<string, KubeObject>, later = false): ObjectReader & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    get(ref: ObjectReference) {
      reads.push(`${ref.resource}/${ref.name}`);
      const found = stored.get(`${ref.resource}/${ref.name}`) ?? null;
      return later ? Promise.resolve(found) : found;
    },
  };
}

const bound: ServiceAccountClaims = {
  namespace: "ns",
  serviceAccount: { name: "sa", uid: "u1" },
  pod: { name: "job", uid: "p1" },
  legacy: false,
};

test("validator.Validate reads the ServiceAccount, then the bound Pod, on every request: a deletion or re-creation between two requests counts", () => {
  const stored = new Map([["serviceaccounts/sa", object("ServiceAccount", "sa", "u1")], ["pods/job", object("Pod", "job", "p1")]]);
  const objects = reader(stored);
  expect(revocationProblem(objects, bound, "t", Date.now(), 0)).toBeUndefined();
  stored.set("pods/job", object("Pod", "job", "p2"));
  expect(revocationProblem(objects, bound, "t", Date.now(), 0)).toBe("pod UID (p2) does not match claim (p1)");
  stored.delete("serviceaccounts/sa");
  expect(revocationProblem(objects, bound, "t", Date.now(), 0)).toBe('serviceaccounts "sa" not found');
  expect(objects.reads).toEqual(["serviceaccounts/sa", "pods/job", "serviceaccounts/sa", "pods/job", "serviceaccounts/sa"]);
});

test("an object deleted more than the leeway ago no longer backs a token; reads that wait give the same answers", async () => {
  const deleting = object("ServiceAccount", "sa", "u1");
  deleting.metadata.deletionTimestamp = new Date(Date.now() - 120_000).toISOString();
  const stored = new Map([["serviceaccounts/sa", deleting], ["pods/job", object("Pod", "job", "p1")]]);
  expect(await revocationProblem(reader(stored, true), bound, "t", Date.now(), 0)).toBe("service account ns/sa has been deleted");
  stored.set("serviceaccounts/sa", object("ServiceAccount", "sa", "u1"));
  stored.delete("pods/job");
  expect(await revocationProblem(reader(stored, true), bound, "t", Date.now(), 0)).toBe('pods "job" not found');
});

test("legacyValidator.Validate: a legacy token is valid only while its Secret holds the same token", () => {
  const legacy: ServiceAccountClaims = {
    namespace: "ns",
    serviceAccount: { name: "sa", uid: "" },
    secret: { name: "tok", uid: "" },
    legacy: true,
  };
  const secret = (token: string) => object("Secret", "tok", "s1", { data: { token: Buffer.from(token).toString("base64") } });
  const stored = new Map([["serviceaccounts/sa", object("ServiceAccount", "sa", "u1")], ["secrets/tok", secret("t")]]);
  expect(revocationProblem(reader(stored), legacy, "t", Date.now(), 0)).toBeUndefined();
  stored.set("secrets/tok", secret("other"));
  expect(revocationProblem(reader(stored), legacy, "t", Date.now(), 0)).toBe("token does not match server's copy");
});
