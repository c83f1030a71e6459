/**
 * A write's body as the store takes it: a copy with apiVersion and kind first, metadata an object, its namespace
 * reconciled with the URL's, empty metadata members dropped (omitempty), then the kind's own normalization.
 */
import { cloneJSONValue } from "../api/json-clone.ts";
import type { ResourceType } from "../api/resource-type.ts";
import { apiVersionOf, isPlainObject, type KubeObject } from "../api/types.ts";
import { withEnvelopeFirst } from "./codec.ts";
import { dropEmptyMetadata, reconcileNamespace } from "./object-meta.ts";
import type { Strategy } from "./strategy.ts";

/** `owned`: the body was decoded for this write alone, so it is changed in place rather than copied first. */
export function normalizedBody(type: ResourceType, strategy: Strategy, body: KubeObject, namespace: string, owned = false): KubeObject {
  const obj = withEnvelopeFirst(owned ? body : cloneJSONValue(body), apiVersionOf(type.group, type.version), type.kind);
  if (!isPlainObject(obj.metadata)) obj.metadata = {};
  reconcileNamespace(obj.metadata, namespace, type.namespaced);
  dropEmptyMetadata(obj.metadata);
  strategy.normalize?.(obj);
  return obj;
}
