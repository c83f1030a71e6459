/** What a store write takes and answers, and the checks the registry plugs into every store. */
import type { KubeObject } from "../api/types.ts";
import type { KeyValue } from "../storage/storage.ts";
import type { ResourceType } from "../api/resource-type.ts";
import type { UserInfo } from "../auth/user.ts";
import type { PropagationPolicy } from "./delete-propagation.ts";
import type { WriteAttempt } from "./write-guard.ts";

export interface WriteOptions {
  dryRun?: boolean;
  /** "" for the main resource, else the subresource written (status, finalize, approval). */
  subresource?: string;
  /** What to do with fields the kind's schema does not know (spec 4.7); default Warn. */
  fieldValidation?: "Ignore" | "Warn" | "Strict";
  /** Receives Warning texts (unknown fields under Warn). */
  warnings?: string[];
  /** The handler dropped and reported the body's unknown fields as it decoded it (Store.dropUnknownFields). */
  unknownFieldsDropped?: boolean;
  /** A create's body was decoded for this write alone (its handler's): the store changes it in place, not a copy. */
  bodyOwned?: boolean;
  /** Recorded in managedFields as the writer (operation Update); absent for the server's own writes. */
  fieldManager?: string;
  /** Server-side apply already computed managedFields: the store records nothing for this write. */
  applied?: boolean;
  /** Create a missing object even where the kind refuses PUT-creates (server-side apply). */
  forceAllowCreate?: boolean;
  /** The body is a client's whole object (PUT): see update-version.ts for what its resourceVersion means. */
  replace?: boolean;
  /** Who writes; absent for the server's own writes, admitted as its loopback user (LOOPBACK_USER) unless bootstrap. */
  user?: UserInfo;
  /** Receives admission's audit annotations. */
  auditAnnotations?: Map<string, string>;
  /** An actor's update that stands for a kube client's patch is authorized as "patch" (actor.ts). */
  patch?: boolean;
  /** The request's body is large: its normalizing, checking and validation each take an event-loop turn (api/turns.ts). */
  largeBody?: boolean;
}

export interface DeleteOptions {
  dryRun?: boolean;
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  /** What happens to dependents (see delete-propagation.ts); absent = the object's finalizers or the kind's default. */
  propagationPolicy?: PropagationPolicy;
  /** The deprecated DeleteOptions.orphanDependents, never set with propagationPolicy; each kind reads it its way. */
  orphanDependents?: boolean;
  /** Who deletes; absent for the server's own deletes, admitted as its loopback user unless bootstrap. */
  user?: UserInfo;
  /** Receives admission's audit annotations. */
  auditAnnotations?: Map<string, string>;
}

/** A create as stored: the key-value written, or for a dry run the object a real write would have stored and read. */
export type CreateResult = { kv: KeyValue } | { object: KubeObject };

export interface DeleteResult {
  object: KubeObject;
  /** False when the object stays, terminating, until its finalizers are gone. */
  deleted: boolean;
}

/** Checked before a namespaced object is created: throws when the namespace is missing or terminating. */
export type NamespaceGate = (namespace: string, type: ResourceType, name: string) => void | Promise<void>;

/** Checks a user's write after validation (see write-guard.ts). */
export type WriteGate = (attempt: WriteAttempt) => void | Promise<void>;
