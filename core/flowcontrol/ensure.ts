/**
 * Keeps kube's bootstrap flow-control objects in storage (kube's APF config-producer post-start hook and its
 * ensurer): a missing object is created; an existing one gets the bootstrap spec back when its
 * `apf.kubernetes.io/autoupdate-spec` annotation says "true" — or, lacking a boolean there, when nobody but the
 * server has written it (generation 1), as kube's shouldUpdateSpec decides. "false" leaves the object alone.
 */
import { isDeepStrictEqual } from "node:util";
import { isAlreadyExists, isConflict, isNotFound } from "../api/errors.ts";
import type { KubeObject } from "../api/types.ts";
import type { ResourceStore } from "../registry/store.ts";
import { applyDefaults } from "../schema/defaults/mod.ts";
import {
  AUTO_UPDATE_ANNOTATION,
  MANDATORY_FLOW_SCHEMAS,
  MANDATORY_PRIORITY_LEVELS,
  SUGGESTED_FLOW_SCHEMAS,
  SUGGESTED_PRIORITY_LEVELS,
} from "../api/flowcontrol-bootstrap.ts";

export interface FlowControlStores {
  flowSchemas: ResourceStore;
  priorityLevels: ResourceStore;
}

/** The spellings Go's strconv.ParseBool accepts. */
const GO_TRUE = new Set(["1", "t", "T", "TRUE", "true", "True"]);
const GO_FALSE = new Set(["0", "f", "F", "FALSE", "false", "False"]);

/** kube's shouldUpdateSpec. */
export function shouldUpdateSpec(object: KubeObject): boolean {
  const value = object.metadata.annotations?.[AUTO_UPDATE_ANNOTATION] ?? "";
  if (GO_TRUE.has(value)) return true;
  if (GO_FALSE.has(value)) return false;
  return object.metadata.generation === 1;
}

async function ensureObject(store: ResourceStore, bootstrap: KubeObject): Promise<void> {
  const name = String(bootstrap.metadata.name);
  const expected = structuredClone(bootstrap);
  applyDefaults(store.type, expected);
  try {
    await store.update("", name, (current) => {
      if (current === null) return structuredClone(expected);
      if (!shouldUpdateSpec(current) || isDeepStrictEqual(current.spec, expected.spec)) throw UNCHANGED;
      const annotations = { ...current.metadata.annotations, [AUTO_UPDATE_ANNOTATION]: "true" };
      return { ...current, metadata: { ...current.metadata, annotations }, spec: structuredClone(expected.spec) };
    }, { forceAllowCreate: true });
  } catch (error) {
    // Another writer got in between: the next round looks again.
    if (error === UNCHANGED || isAlreadyExists(error) || isConflict(error) || isNotFound(error)) return;
    throw error;
  }
}

const UNCHANGED = Symbol("unchanged");

/** One round over every bootstrap object, priority levels first so no schema is dangling for long. */
export async function ensureFlowControlBootstrap(stores: FlowControlStores): Promise<void> {
  for (const level of [...MANDATORY_PRIORITY_LEVELS, ...SUGGESTED_PRIORITY_LEVELS]) await ensureObject(stores.priorityLevels, level);
  for (const schema of [...MANDATORY_FLOW_SCHEMAS, ...SUGGESTED_FLOW_SCHEMAS]) await ensureObject(stores.flowSchemas, schema);
}
