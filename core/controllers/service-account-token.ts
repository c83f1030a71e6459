/**
 * kube's serviceaccount-token controller (tokens_controller.go) for legacy token Secrets (spec 5.6.3): a Secret of
 * type kubernetes.io/service-account-token naming an existing account gets token, ca.crt, namespace and the
 * account's uid annotation; one naming a missing account (or another uid) is deleted, as are the token Secrets of
 * a deleted account. None is created on its own (LegacyServiceAccountTokenNoAutoGeneration is GA in 1.26).
 */
import { Buffer } from "node:buffer";
import { isConflict } from "../api/errors.ts";
import type { KubeObject } from "../api/types.ts";
import type { Controller, ControllerContext } from "./runtime/mod.ts";
import { enqueueChanges } from "./runtime/mod.ts";
import { keyOf, splitKey } from "./runtime/mod.ts";
import { isBenignRace } from "./_races.ts";
import { signLegacyToken } from "./legacy-token.ts";

export const SERVICE_ACCOUNT_TOKEN_TYPE = "kubernetes.io/service-account-token";
const NAME_ANNOTATION = "kubernetes.io/service-account.name";
const UID_ANNOTATION = "kubernetes.io/service-account.uid";

const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

export const serviceAccountTokenController: Controller = {
  name: "serviceaccount-token",
  async start(ctx) {
    const secrets = await ctx.informer("", "v1", "secrets");
    const accounts = await ctx.informer("", "v1", "serviceaccounts");
    const queue = ctx.queue((key) => syncSecret(ctx, key, secrets.get(splitKey(key).namespace, splitKey(key).name), accounts));
    const isToken = (secret: KubeObject) => (secret as { type?: string }).type === SERVICE_ACCOUNT_TOKEN_TYPE;
    enqueueChanges(secrets, queue, (secret) => (isToken(secret) ? keyOf(secret) : undefined), ctx.signal);
    // An account's change or deletion concerns the token Secrets naming it.
    enqueueChanges(accounts, queue, (sa) =>
      secrets.list(sa.metadata.namespace as string)
        .filter((s) => isToken(s) && s.metadata.annotations?.[NAME_ANNOTATION] === sa.metadata.name)
        .map(keyOf), ctx.signal);
  },
};

type Accounts = { get(namespace: string, name: string): KubeObject | undefined };

async function syncSecret(ctx: ControllerContext, key: string, secret: KubeObject | undefined, accounts: Accounts): Promise<void> {
  if (!secret) return;
  const { namespace, name } = splitKey(key);
  const annotations = secret.metadata.annotations ?? {};
  const account = accounts.get(namespace, annotations[NAME_ANNOTATION] ?? "");
  const wantedUID = annotations[UID_ANNOTATION];
  const store = ctx.store("", "v1", "secrets");
  try {
    if (!account || (wantedUID && wantedUID !== account.metadata.uid)) {
      await store.delete(namespace, name, { preconditions: { uid: secret.metadata.uid as string } });
      return;
    }
    const data = (secret as { data?: Record<string, string> }).data ?? {};
    if (data.token && data["ca.crt"] && data.namespace && wantedUID) return;
    const signingKey = ctx.settings.serviceAccountSigningKey;
    if (!signingKey) throw new Error("no service account signing key to fill token Secrets with");
    const token = data.token ?? base64(
      await signLegacyToken(signingKey, {
        namespace,
        secretName: name,
        serviceAccountName: account.metadata.name as string,
        serviceAccountUID: account.metadata.uid as string,
      }),
    );
    // kube's generateTokenIfNeeded: the Secret is filled as it was read, its resourceVersion a precondition; one
    // changed meanwhile (409) is filled when its update event comes.
    const filled = {
      ...secret,
      metadata: {
        ...secret.metadata,
        annotations: {
          ...annotations,
          [NAME_ANNOTATION]: account.metadata.name as string,
          [UID_ANNOTATION]: account.metadata.uid as string,
        },
      },
      data: { ...data, token, "ca.crt": base64(ctx.settings.caPem), namespace: base64(namespace) },
    };
    await store.update(namespace, name, () => filled);
  } catch (e) {
    if (!isBenignRace(e) && !isConflict(e)) throw e;
  }
}
