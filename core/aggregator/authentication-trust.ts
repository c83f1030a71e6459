/**
 * Keeps kube-system/extension-apiserver-authentication current (kube-apiserver's cluster authentication trust
 * controller): written at start and again whenever it is edited or deleted, so aggregated servers built on
 * k8s.io/apiserver learn which CAs, names and headers identify this server's clients and front proxy.
 */
import { isAlreadyExists, isNotFound } from "../api/errors.ts";
import { isDeepStrictEqual } from "node:util";
import type { KubeObject } from "../api/types.ts";
import type { Catalog } from "../registry/catalog.ts";
import { collectionPrefix } from "../registry/keys.ts";
import type { Registry } from "../registry/registry.ts";
import { type AuthenticationTrust, authenticationTrustData } from "./authentication-trust-data.ts";
import { logger } from "../log/mod.ts";

const log = logger("authentication-trust");

export const AUTHENTICATION_CONFIGMAP = { namespace: "kube-system", name: "extension-apiserver-authentication" };

export interface AuthenticationTrustPublisher {
  stop(): void;
  /** Resolves when the write scheduled by the last change is done (tests use it). */
  settled(): Promise<void>;
}

export async function publishAuthenticationTrust(
  registry: Registry,
  catalog: Catalog,
  required: AuthenticationTrust,
): Promise<AuthenticationTrustPublisher> {
  // The server's own start-up object: a bootstrap write (Registry.bootstrapWriter()).
  const store = registry.bootstrapWriter().store(catalog.byGroupVersionResource("", "v1", "configmaps")!);
  const { namespace, name } = AUTHENTICATION_CONFIGMAP;
  let pass: Promise<void> = Promise.resolve();
  let scheduled = false;

  const sync = async () => {
    scheduled = false;
    const current = await store.get(namespace, name).catch((e) => {
      if (isNotFound(e)) return null;
      throw e;
    });
    const stored = (current?.data ?? {}) as Record<string, string>;
    const data = authenticationTrustData(stored, required);
    if (current && isDeepStrictEqual(stored, data)) return;
    if (current) {
      await store.update(
        namespace,
        name,
        (live) => ({ ...(live ?? configMap()), data: authenticationTrustData((live?.data ?? {}) as Record<string, string>, required) }),
      );
    } else {
      await store.create(namespace, { ...configMap(), data }).catch((e) => {
        if (!isAlreadyExists(e)) throw e;
      });
    }
  };
  const configMap = (): KubeObject => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace } });
  // Events arrive inside the commit; the write runs after it, one at a time.
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    pass = pass.then(sync).catch((e) => log.error(`keeping ${namespace}/${name} current failed`, e));
  };
  const follow = await registry.follow(collectionPrefix(store.type, namespace), (event) => {
    if (event.object.metadata.name === name) schedule();
  });
  schedule();
  await pass;
  return { stop: follow.stop, settled: () => pass };
}
