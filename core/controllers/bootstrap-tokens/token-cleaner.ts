/**
 * kube's `tokencleaner` (off by default, like kube: `--controllers=*,tokencleaner`): deletes bootstrap token
 * Secrets once their expiration has passed, and looks again at each one when it is due to expire.
 */
import { tolerateBenignRace } from "../_races.ts";
import type { Controller } from "../runtime/mod.ts";
import { enqueueChanges } from "../runtime/mod.ts";
import { keyOf, splitKey } from "../runtime/mod.ts";
import { expiresAt, hasExpired, isBootstrapTokenSecret } from "./token-secret.ts";

/** Longest single wait before looking at a token again (timers cannot wait for years). */
const MAX_RECHECK_MS = 60 * 60 * 1000;

export const tokenCleaner: Controller = {
  name: "tokencleaner",
  async start(ctx) {
    const secrets = await ctx.informer("", "v1", "secrets");
    const store = ctx.store("", "v1", "secrets");
    const queue = ctx.queue(async (key) => {
      const { namespace, name } = splitKey(key);
      const secret = secrets.get(namespace, name);
      if (!secret || secret.metadata.deletionTimestamp) return;
      const expiry = expiresAt(secret);
      if (expiry === undefined) return;
      const now = Date.now();
      if (!hasExpired(expiry, now)) {
        queue.addAfter(key, Math.min(expiry - now + 1, MAX_RECHECK_MS));
        return;
      }
      ctx.log(`tokencleaner: deleting expired bootstrap token Secret ${key}`);
      await tolerateBenignRace(store.delete(namespace, name, { preconditions: { uid: String(secret.metadata.uid) } }));
    });
    enqueueChanges(secrets, queue, (secret) => (isBootstrapTokenSecret(secret) ? keyOf(secret) : undefined), ctx.signal);
  },
};
