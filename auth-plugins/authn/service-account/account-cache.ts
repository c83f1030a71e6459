/**
 * kube's clientGetter.GetServiceAccount (pkg/controller/serviceaccount/tokengetter.go): a token's ServiceAccount is
 * read from an informer's cache, and from storage only when the cache does not hold it. The cache follows the
 * collection through the client's watch, which hands over each commit before the write is answered, so the request
 * after a delete or a re-create already sees it; tokens no longer read their account from storage on every request.
 */
import type { KubeObject, ReadOnlyClient } from "../../../plugins/sdk.ts";
import type { ObjectReader } from "./lookup.ts";

const SERVICE_ACCOUNTS = { group: "", version: "v1", resource: "serviceaccounts" };

/** The client's reads, those of ServiceAccounts answered from the cache, at once, once it has been filled. */
export function withServiceAccountCache(client: ReadOnlyClient): ObjectReader {
  // By namespace, then name: a lookup builds no key.
  const accounts = new Map<string, Map<string, KubeObject>>();
  let filled = false;
  // Started by the first lookup: the plugin is made before the server's storage serves reads.
  let following: Promise<unknown> | undefined;
  const follow = () =>
    client.watch(SERVICE_ACCOUNTS, ({ type, object }) => {
      const namespace = object.metadata.namespace ?? "";
      let named = accounts.get(namespace);
      if (type === "DELETED") {
        named?.delete(object.metadata.name ?? "");
        if (named?.size === 0) accounts.delete(namespace);
        return;
      }
      if (!named) accounts.set(namespace, named = new Map());
      named.set(object.metadata.name ?? "", object);
    }).then(
      () => (filled = true),
      // Without the cache every lookup reads storage, as before; the next lookup tries to follow again.
      () => (following = undefined),
    );
  return {
    get(ref) {
      if (ref.group !== "" || ref.resource !== SERVICE_ACCOUNTS.resource) return client.get(ref);
      following ??= follow();
      const cached = filled ? accounts.get(ref.namespace ?? "")?.get(ref.name) : undefined;
      return cached ?? client.get(ref);
    },
  };
}
