/** Namespaced objects go only into a namespace that exists and is not terminating (kube's NamespaceLifecycle). */
import { newForbidden, newNotFound } from "../api/errors.ts";
import type { Storage } from "../storage/storage.ts";
import { decodeStored } from "./codec.ts";
import { objectKey } from "./keys.ts";
import type { ResourceType } from "../api/resource-type.ts";

const NAMESPACES: Pick<ResourceType, "group" | "resource" | "namespaced"> = { group: "", resource: "namespaces", namespaced: false };

export async function checkNamespaceOpen(storage: Storage, namespace: string, type: ResourceType, name: string): Promise<void> {
  const kv = await storage.get(objectKey(NAMESPACES, "", namespace));
  if (!kv) throw newNotFound({ group: "", resource: "namespaces" }, namespace);
  const ns = decodeStored(kv);
  if (ns.metadata.deletionTimestamp || (ns.status as { phase?: string } | undefined)?.phase === "Terminating") {
    const message = `unable to create new content in namespace ${namespace} because it is being terminated`;
    const resource = type.group === "" ? type.resource : `${type.resource}.${type.group}`;
    throw newForbidden(`${resource} "${name}" is forbidden: ${message}`, {
      name,
      kind: type.resource,
      group: type.group || undefined,
      causes: [{ reason: "NamespaceTerminating", message, field: "metadata.namespace" }],
    });
  }
}
