/**
 * kube's clientGetter.GetServiceAccount (pkg/controller/serviceaccount/tokengetter.go): a token's ServiceAccount is
 * read from an informer's cache, and from storage only when the cache does not hold it. The cache follows the
 * collection through the client's watch, which hands over each commit before the write is answered, so the request
 * after a delete or a re-create already sees it; tokens no longer read their account from storage on every request.
 */
import type { KubeObject, ReadOnlyClient } from "../../../plugins/sdk.ts";
import type { ObjectReader } from "./lookup.ts";

const SERVICE_ACCOUNTS = { group: "", version: "v1", resource: "serviceaccounts" };

const keyOf = (namespace: string, name: string) => `${namespace}/${name}`;

/** The client's reads, those of ServiceAccounts answered from the cache, at once, once it has been filled. */
export function withServiceAccountCache(client: ReadOnlyClient): ObjectReader {
  const accounts = new Map<string, KubeObject>();
  let filled = false;
  // Started by the first lookup: the plugin is made before the server's storage serves reads.
  let following: Promise<unknown> | undefined;
  const follow = () =>
    client.watch(SERVICE_ACCOUNTS, ({ type, object }) => {
      const key = keyOf(object.metadata.namespace ?? "", object.metadata.name ?? "");
      if (type === "DELETED") accounts.delete(key);
      else accounts.set(key, object);
    }).then(
      () => (filled = true),
      // Without the cache every lookup reads storage, as before; the next lookup tries to follow again.
      () => (following = undefined),
    );
  return {
    get(ref) {
      if (ref.group !== "" || ref.resource !== SERVICE_ACCOUNTS.resource) return client.get(ref);
      following ??= follow();
      const cached = filled ? accounts.get(keyOf(ref.namespace ?? "", ref.name)) : undefined;
      return cached ?? client.get(ref);
    },
  };
}
