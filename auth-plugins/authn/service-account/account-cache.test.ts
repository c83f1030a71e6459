import { expect, test } from "bun:test";
import type { CollectionEvent, KubeObject, ObjectReference, ReadOnlyClient } from "../../../plugins/sdk.ts";
import { withServiceAccountCache } from "./account-cache.ts";

const account = (name: string, uid: string): KubeObject => ({
  apiVersion: "v1",
  kind: "ServiceAccount",
  metadata: { name, namespace: "default", uid },
});

/** A client over `stored` that counts its reads and lets the test deliver watch events. */
function fakeClient(stored: Map<string, KubeObject>) {
  let deliver!: (event: CollectionEvent) => void;
  const reads: string[] = [];
  const client: ReadOnlyClient = {
    get(ref: ObjectReference) {
      reads.push(`${ref.resource}/${ref.name}`);
      return Promise.resolve(ref.resource === "serviceaccounts" ? stored.get(ref.name) ?? null : null);
    },
    list: () => Promise.resolve([...stored.values()]),
    watch(_ref, onEvent) {
      deliver = onEvent;
      for (const object of stored.values()) onEvent({ type: "ADDED", object });
      return Promise.resolve({ stop: () => {} });
    },
  };
  return { client, reads, deliver: (event: CollectionEvent) => deliver(event) };
}

const bob = { group: "", version: "v1", resource: "serviceaccounts", namespace: "default", name: "bob" };

test("clientGetter.GetServiceAccount: once followed, accounts come from the cache, not from a read per token", async () => {
  const fake = fakeClient(new Map([["bob", account("bob", "u1")]]));
  const cached = withServiceAccountCache(fake.client);
  expect((await cached.get(bob))?.metadata.uid).toBe("u1");
  await Promise.resolve();
  const readsAfterFilling = fake.reads.length;
  for (let i = 0; i < 3; i++) expect((await cached.get(bob))?.metadata.uid).toBe("u1");
  expect(fake.reads.length).toBe(readsAfterFilling);
});

test("a deleted account is gone from the cache at its DELETED event, and a re-created one carries its new uid", async () => {
  const stored = new Map([["bob", account("bob", "u1")]]);
  const fake = fakeClient(stored);
  const cached = withServiceAccountCache(fake.client);
  await cached.get(bob);
  await Promise.resolve();
  stored.delete("bob");
  fake.deliver({ type: "DELETED", object: account("bob", "u1") });
  expect(await cached.get(bob)).toBeNull();
  stored.set("bob", account("bob", "u2"));
  fake.deliver({ type: "ADDED", object: account("bob", "u2") });
  expect((await cached.get(bob))?.metadata.uid).toBe("u2");
});

test("an account the cache does not hold is read from storage (the getter's fallback); other kinds always are", async () => {
  const stored = new Map<string, KubeObject>();
  const fake = fakeClient(stored);
  const cached = withServiceAccountCache(fake.client);
  expect(await cached.get(bob)).toBeNull();
  await Promise.resolve();
  stored.set("bob", account("bob", "u3"));
  expect((await cached.get(bob))?.metadata.uid).toBe("u3");
  await cached.get({ ...bob, resource: "pods" });
  expect(fake.reads).toEqual(["serviceaccounts/bob", "serviceaccounts/bob", "pods/bob"]);
});
