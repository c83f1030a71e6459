/**
 * kube's `bootstrapsigner` (off by default, like kube: `--controllers=*,bootstrapsigner`): keeps one
 * `jws-kubeconfig-<token-id>` signature of cluster-info's `kubeconfig` per bootstrap token that is marked
 * `usage-bootstrap-signing: "true"` and not expired, and drops the signatures of the others.
 */
import { isDeepStrictEqual } from "node:util";
import type { KubeObject } from "../../api/types.ts";
import { tolerateBenignRace } from "../_races.ts";
import type { Controller } from "../runtime/mod.ts";
import { enqueueChanges } from "../runtime/mod.ts";
import { CLUSTER_INFO_NAME, CLUSTER_INFO_NAMESPACE, KUBECONFIG_KEY, SIGNATURE_KEY_PREFIX } from "./cluster-info.ts";
import { detachedSignature } from "./detached-jws.ts";
import { type BootstrapToken, hasExpired, isBootstrapTokenSecret, readBootstrapToken, TOKEN_NAMESPACE } from "./token-secret.ts";

const CLUSTER_INFO_KEY = `${CLUSTER_INFO_NAMESPACE}/${CLUSTER_INFO_NAME}`;
/** Longest single wait before looking at the tokens' expiry again (timers cannot wait for years). */
const MAX_RECHECK_MS = 60 * 60 * 1000;

export const bootstrapSigner: Controller = {
  name: "bootstrapsigner",
  async start(ctx) {
    const configMaps = await ctx.informer("", "v1", "configmaps");
    const secrets = await ctx.informer("", "v1", "secrets");
    const store = ctx.store("", "v1", "configmaps");
    const queue = ctx.queue(async (key) => {
      // As kube's signConfigMap: nothing to sign until cluster-info exists (the server creates it, see cluster-info.ts).
      if (!configMaps.get(CLUSTER_INFO_NAMESPACE, CLUSTER_INFO_NAME)) return;
      const now = Date.now();
      const tokens = secrets.list(TOKEN_NAMESPACE).map(readBootstrapToken).filter((token): token is BootstrapToken =>
        token !== undefined && token.signing && !hasExpired(token.expiresAt, now)
      );
      const nextExpiry = Math.min(...tokens.map((token) => token.expiresAt ?? Infinity));
      if (Number.isFinite(nextExpiry)) queue.addAfter(key, Math.min(nextExpiry - now + 1, MAX_RECHECK_MS));
      await tolerateBenignRace(store.update(CLUSTER_INFO_NAMESPACE, CLUSTER_INFO_NAME, (live) => signed(live!, tokens)));
    });
    enqueueChanges(
      configMaps,
      queue,
      (cm) => (cm.metadata.namespace === CLUSTER_INFO_NAMESPACE && cm.metadata.name === CLUSTER_INFO_NAME ? CLUSTER_INFO_KEY : undefined),
      ctx.signal,
    );
    enqueueChanges(secrets, queue, (secret) => (isBootstrapTokenSecret(secret) ? CLUSTER_INFO_KEY : undefined), ctx.signal);
    queue.add(CLUSTER_INFO_KEY);
  },
};

/** cluster-info with exactly the tokens' signatures; the same object when nothing changes. */
async function signed(clusterInfo: KubeObject, tokens: BootstrapToken[]): Promise<KubeObject> {
  const data = (clusterInfo.data ?? {}) as Record<string, string>;
  const content = data[KUBECONFIG_KEY];
  // As kube: nothing to sign without the kubeconfig key, so the signatures are left as they are.
  if (content === undefined) return clusterInfo;
  const next = Object.fromEntries(Object.entries(data).filter(([key]) => !key.startsWith(SIGNATURE_KEY_PREFIX)));
  for (const token of tokens) next[`${SIGNATURE_KEY_PREFIX}${token.id}`] = await detachedSignature(content, token.id, token.secret);
  return isDeepStrictEqual(next, data) ? clusterInfo : { ...clusterInfo, data: next };
}
