/**
 * A store's managedFields for writes that are not apply (kube's fieldmanager on its update and create handlers): every
 * such write records an Update entry for its field manager (spec 3.2), within the ownership scope of the endpoint
 * written (the resource or one of its subresources).
 */
import { apiVersionOf, type KubeObject } from "../api/types.ts";
import { thenOrNow } from "../api/then-or-now.ts";
import type { ResourceType } from "../api/resource-type.ts";
import { managedFieldsAfterUpdate, type OwnershipScope, typeForKind, type VersionConverter } from "../apply/ssa/mod.ts";
import { builtInVersionConverter, customResourceVersionConverter } from "./managed-fields-versions.ts";
import { nowTimestamp } from "./object-meta.ts";
import type { StoreExtension } from "./store-extension.ts";
import type { WriteOptions } from "./store-options.ts";
import type { Strategy } from "./strategy.ts";

/** The manager of the server's own writes, as kube-apiserver's loopback client is named. */
const SERVER_FIELD_MANAGER = "kube-apiserver";

export class ManagedFieldsTracking {
  readonly #type: ResourceType;
  readonly #strategy: Strategy;
  readonly #extension?: StoreExtension;
  readonly #converter: VersionConverter;
  /** Each endpoint's ownership scope, made once: its parts are fixed with the store (its type, strategy and extension). */
  readonly #scopes = new Map<string, OwnershipScope>();

  constructor(type: ResourceType, strategy: Strategy, extension: StoreExtension | undefined) {
    this.#type = type;
    this.#strategy = strategy;
    this.#extension = extension;
    this.#converter = extension ? customResourceVersionConverter(extension) : builtInVersionConverter(type);
  }

  /** What writes to this resource (or one of its subresources) may own in managedFields. */
  scope(subresource = ""): OwnershipScope {
    let scope = this.#scopes.get(subresource);
    if (!scope) this.#scopes.set(subresource, scope = this.#newScope(subresource));
    return scope;
  }

  #newScope(subresource: string): OwnershipScope {
    const type = this.#type;
    return {
      apiVersion: apiVersionOf(type.group, type.version),
      subresource,
      hasStatusSubresource: this.#strategy.hasStatus,
      statusResetMetadata: this.#strategy.statusResetMetadata ?? [],
      type: this.#extension?.mergeType ?? typeForKind(type.group, type.version, type.kind),
      converter: this.#converter,
    };
  }

  /** `next`'s managedFields after a write of it over `live` (null for a create); an apply's are the apply's own. */
  track(live: KubeObject | null, next: KubeObject, options: WriteOptions): void | Promise<void> {
    if (options.applied) return;
    const record = { manager: options.fieldManager ?? SERVER_FIELD_MANAGER, now: nowTimestamp() };
    return thenOrNow(
      managedFieldsAfterUpdate(live, next, record, this.scope(options.subresource)),
      (fields) => setManagedFields(next, fields),
    );
  }
}

function setManagedFields(obj: KubeObject, fields: Record<string, unknown>[]): void {
  if (fields.length > 0) obj.metadata.managedFields = fields;
  else delete obj.metadata.managedFields;
}
