/**
 * The generic store (kube's registry.Store): create, get, update and delete of one resource type over
 * Storage, driven by the kind's definition (definition.ts). Lists and watches live in list.ts and watch.ts.
 */
import { isNotFound, newAlreadyExists, newBadRequest, newInvalid, newNotFound, type QualifiedResource } from "../api/errors.ts";
import { takeTurn } from "../api/turns.ts";
import { thenOrNow } from "../api/then-or-now.ts";
import { apiVersionOf, isPlainObject, type KubeObject } from "../api/types.ts";
import { isStorageError, type KeyValue, type RangeOptions, type RangeResult, type Storage } from "../storage/storage.ts";
import type { WatchBroker } from "../watch/mod.ts";
import { decodeStored, encodeForStorage } from "./codec.ts";
import { withGoZeroValues } from "../schema/go-zero-values.ts";
import { objectKey } from "./keys.ts";
import { bumpsGeneration, prepareCreateMeta, prepareUpdateMeta } from "./object-meta.ts";
import { normalizedBody } from "./normalized-body.ts";
import type { ResourceType } from "../api/resource-type.ts";
import type { StoreExtension } from "./store-extension.ts";
import type { Strategy } from "./strategy.ts";
import type { KindDefinition } from "./definition.ts";
import { dropUnknownFields } from "./unknown-fields.ts";
import { validateNewObject } from "./validate.ts";
import { checkUpdateVersion } from "./update-version.ts";
import { checkBodyName, mergedForUpdate, setStatus } from "./subresource-writes.ts";
import type { OwnershipScope } from "../apply/ssa/mod.ts";
import { ManagedFieldsTracking } from "./managed-fields-tracking.ts";
import type { UserInfo } from "../auth/user.ts";
import type { WriteAttempt } from "./write-guard.ts";
import type { CreateResult, DeleteOptions, DeleteResult, NamespaceGate, WriteGate, WriteOptions } from "./store-options.ts";
import type { WriteHooks } from "./write-hook.ts";
import { deletesDuringUpdate, planDelete } from "./delete-plan.ts";
import { checkDeletePreconditions, type PreconditionSubject } from "./delete-preconditions.ts";
import { type AdmissionHook, type AdmittedWrite, deleteOptionsObject, writeOptionsObject } from "./admission-hook.ts";
import type { ActorRequest, StoreActor } from "./actor.ts";
import { type VersionConversion, versionConversionFor } from "./conversion/mod.ts";

/** A turn before the next whole-object step of a large body's write; nothing to wait for with ordinary bodies. */
function turnFor(options: WriteOptions): Promise<void> | undefined {
  return options.largeBody ? takeTurn() : undefined;
}

/** Who the server's own writes are made as: its loopback client's user (k8s.io/apiserver AuthorizeClientBearerToken). */
export const LOOPBACK_USER: UserInfo = { username: "system:apiserver", groups: ["system:masters"] };

export class ResourceStore {
  readonly definition: KindDefinition;
  readonly type: ResourceType;
  readonly strategy: Strategy;
  readonly qualified: QualifiedResource;
  readonly #storage: Storage;
  readonly #preconditionSubject: PreconditionSubject;
  readonly #changes: WatchBroker;
  readonly #namespaceGate: NamespaceGate;
  readonly #writeGate?: WriteGate;
  readonly #admission?: () => AdmissionHook | undefined;
  readonly #writeHooks?: WriteHooks;
  readonly #extension?: StoreExtension;
  readonly #actor?: StoreActor;
  readonly #bootstrap: boolean;
  readonly #conversion?: VersionConversion;
  readonly #managedFields: ManagedFieldsTracking;

  constructor(
    definition: KindDefinition,
    deps: {
      storage: Storage;
      namespaceGate: NamespaceGate;
      writeGate?: WriteGate;
      admission?: () => AdmissionHook | undefined;
      writeHooks?: WriteHooks;
      /** The watch broker over `storage`, which control loops follow (changes). */
      changes: WatchBroker;
      /** An in-process API client every write of this store is made, authorized and admitted as (actor.ts). */
      actor?: StoreActor;
      /** Every write is the server's own bootstrap write, which skips admission (Registry.bootstrapWriter()). */
      bootstrap?: boolean;
    },
  ) {
    const type = definition.type;
    this.definition = definition;
    this.type = type;
    this.#extension = definition.extension;
    this.#conversion = versionConversionFor(type);
    this.strategy = definition.strategy;
    this.#managedFields = new ManagedFieldsTracking(type, definition.strategy, definition.extension);
    this.qualified = { group: type.group, resource: type.resource };
    this.#preconditionSubject = { qualified: this.qualified, kind: { group: type.group, resource: type.kind } };
    this.#storage = deps.storage;
    this.#changes = deps.changes;
    this.#namespaceGate = deps.namespaceGate;
    this.#writeGate = deps.writeGate;
    this.#admission = deps.admission;
    this.#writeHooks = deps.writeHooks;
    this.#actor = deps.actor;
    this.#bootstrap = deps.bootstrap === true;
  }

  /** Authorizes, as this store's actor, a request the store does not make itself (a pods/binding create); nothing without an actor. */
  async authorizeActor(verb: ActorRequest["verb"], namespace: string, name: string, subresource: string): Promise<void> {
    await this.#actor?.authorize(this.type, { verb, namespace: this.type.namespaced ? namespace : "", name, subresource });
  }

  /** The actor's identity on a write's options, after authorizing the write as kube's handlers do. */
  async #acting<T extends { user?: UserInfo }>(
    options: T,
    verb: ActorRequest["verb"],
    namespace: string,
    name: string,
    subresource = "",
  ): Promise<T> {
    if (!this.#actor) return options;
    await this.authorizeActor(verb, namespace, name, subresource);
    return { ...options, user: options.user ?? this.#actor.user };
  }

  /**
   * Who a write is admitted and write-guarded as: the request's or actor's user, else the server's loopback user;
   * nobody, so no admission, only for a bootstrap store's writes (Registry.bootstrapWriter()).
   */
  #admittedUser(options: { user?: UserInfo }): UserInfo | undefined {
    return this.#bootstrap ? undefined : options.user ?? LOOPBACK_USER;
  }

  /** Where in-process followers of this store's objects hang (a control loop's triggers): the watch broker. */
  get changes(): Pick<WatchBroker, "follow"> {
    return this.#changes;
  }

  /** A page of the stored objects under `prefix`, as stored (list.ts; CRD cleanup, which must not convert). */
  range(prefix: string, options?: RangeOptions): Promise<RangeResult> {
    return this.#storage.range(prefix, options);
  }

  /**
   * kube's Store.Storage.GuaranteedUpdate: `change` turns the stored object into the one to write, skipping the
   * strategy, validation and admission, as the REST endpoints kube writes that way do (BindingREST's
   * setPodHostAndAnnotations). Retried from a fresh read when another write got in between.
   */
  async guaranteedUpdate(namespace: string, name: string, change: (current: KubeObject) => KubeObject): Promise<KubeObject> {
    const key = this.key(namespace, name);
    let kv = await this.#storage.get(key);
    for (;;) {
      if (!kv) throw newNotFound(this.qualified, name);
      const next = change(await this.decode(kv));
      try {
        return await this.decode(
          await this.#storage.write({ op: "update", key, value: await this.#encode(next), expectedRevision: kv.modRevision }),
        );
      } catch (e) {
        kv = await this.#afterConflict(e, key);
      }
    }
  }

  /**
   * What a write that lost a race goes on with: the stored value that won, which the conflict carries (etcd3
   * store.GuaranteedUpdate retries on the txn's Else Get without reading again); any other failure is thrown.
   */
  async #afterConflict(e: unknown, key: string): Promise<KeyValue | null> {
    if (!isStorageError(e, "Conflict")) throw e;
    return e.current ?? await this.#storage.get(key);
  }

  /** True for a custom resource whose CRD is terminating; its creates are refused. */
  get terminating(): boolean {
    return this.#extension?.terminating ?? false;
  }

  key(namespace: string, name: string): string {
    return objectKey(this.type, namespace, name);
  }

  /** A stored object as this store's version answers it (custom resources and some built-ins are stored in one version, read in any). */
  async decode(kv: KeyValue): Promise<KubeObject> {
    return (await this.decodeAll([kv], false))[0]!;
  }

  /** Stored objects as this store's version answers them; `list` when they are one list's items (one conversion call). */
  async decodeAll(kvs: KeyValue[], list = true): Promise<KubeObject[]> {
    const objects = kvs.map(decodeStored);
    if (this.#extension) return await this.#extension.convert(objects, apiVersionOf(this.type.group, this.type.version), list);
    const conversion = this.#conversion;
    return conversion ? objects.map((obj) => conversion.fromStored(obj)) : objects;
  }

  /** Whether objects are answered in another version than stored (custom resources, some built-ins), so reads must decode them. */
  get convertsOnRead(): boolean {
    return this.#extension !== undefined || this.#conversion !== undefined;
  }

  /** At once unless a conversion webhook converts it: a create then goes on to the group commit without a turn of its own. */
  #encode(obj: KubeObject): string | Promise<string> {
    if (this.#conversion) return encodeForStorage(this.#conversion.toStored(obj));
    const extension = this.#extension;
    if (!extension) return encodeForStorage(obj);
    return extension.convert([obj], extension.storageApiVersion, false).then((converted) => encodeForStorage(converted[0]!));
  }

  /** What a dry run answers: the object as a real write would have stored and read it back. */
  async #asStoredAndRead(obj: KubeObject): Promise<KubeObject> {
    if (this.#conversion) return this.#conversion.fromStored(this.#conversion.toStored(obj));
    if (!this.#extension) return obj;
    const stored = (await this.#extension.convert([obj], this.#extension.storageApiVersion, false))[0]!;
    return (await this.#extension.convert([stored], apiVersionOf(this.type.group, this.type.version), false))[0]!;
  }

  async get(namespace: string, name: string): Promise<KubeObject> {
    return await this.decode(await this.getStored(namespace, name));
  }

  /**
   * The object as stored (see decode), or a NotFound error: at once, without a promise, when the storage reads
   * synchronously (then a NotFound is thrown, not rejected).
   */
  getStored(namespace: string, name: string): KeyValue | Promise<KeyValue> {
    const kv = this.#storage.get(this.key(namespace, name));
    return kv instanceof Promise ? kv.then((found) => this.#found(found, name)) : this.#found(kv, name);
  }

  #found(kv: KeyValue | null, name: string): KeyValue {
    if (!kv) throw newNotFound(this.qualified, name);
    return kv;
  }

  async create(namespace: string, body: KubeObject, options: WriteOptions = {}): Promise<KubeObject> {
    return await this.createdObject(await this.createStored(namespace, body, options));
  }

  /** A create as stored: a handler answers the written key-value as its stored text without parsing it back, as a GET does. */
  createStored(namespace: string, body: KubeObject, options: WriteOptions = {}): Promise<CreateResult> {
    if (!this.#actor) return this.#create(namespace, body, options);
    return this.#acting(options, "create", namespace, "").then((acting) => this.#create(namespace, body, acting));
  }

  /** The object a create stored, decoded from its stored text where the create kept only that. */
  async createdObject(created: CreateResult): Promise<KubeObject> {
    return "kv" in created ? await this.decode(created.kv) : created.object;
  }

  /**
   * Each step is awaited, even one that answered at once (then the await costs one microtask): the awaits are where a
   * wave's creates take turns step by step (core/runtime/_wave.ts), each step's code run for all of them together.
   */
  async #create(namespace: string, body: KubeObject, options: WriteOptions): Promise<CreateResult> {
    await turnFor(options);
    const obj = normalizedBody(this.type, this.strategy, body, namespace, options.bodyOwned);
    const version = obj.metadata.resourceVersion;
    // kube's storage refuses this as an internal error; it is the client's mistake, so it is a 400 here.
    if (version !== undefined && version !== "" && version !== "0") {
      throw newBadRequest("resourceVersion should not be set on objects to be created");
    }
    prepareCreateMeta(obj, this.strategy.tracksGeneration);
    this.strategy.prepareForCreate?.(obj, options.user);
    if (this.strategy.initialStatus) setStatus(obj, this.strategy.initialStatus(obj));
    await turnFor(options);
    this.#typeAndDefault(obj, options);
    // Fields mutating admission sets belong to no manager: kube records managedFields before admitting (create handler).
    await this.#managedFields.track(null, obj, options);
    const admitted = await this.#admit("CREATE", namespace, obj, null, options);
    await turnFor(options);
    validateNewObject(this.definition, obj);
    await this.#validateAdmission(admitted);
    await this.#guard("create", namespace, obj, null, options);
    const name = obj.metadata.name as string;
    if (this.type.namespaced) await this.#namespaceGate(namespace, this.type, name);
    const undoReservation = await this.#writeHooks?.run({
      operation: "create",
      type: this.type,
      namespace,
      object: obj,
      oldObject: null,
      dryRun: options.dryRun ?? false,
    });
    if (options.dryRun) {
      undoReservation?.();
      if (await this.#storage.get(this.key(namespace, name))) throw newAlreadyExists(this.qualified, name);
      return { object: await this.#asStoredAndRead(obj) };
    }
    try {
      await turnFor(options);
      const encoded = this.#encode(obj);
      const value = typeof encoded === "string" ? encoded : await encoded;
      return { kv: await this.#storage.write({ op: "create", key: this.key(namespace, name), value }) };
    } catch (e) {
      undoReservation?.();
      if (isStorageError(e, "KeyExists")) throw newAlreadyExists(this.qualified, name);
      throw e;
    }
  }

  /**
   * Read-modify-write with retries (kube's Store.Update inside Storage.GuaranteedUpdate): `change` gets the current
   * object and returns the new one. A resourceVersion the new object carries must equal the current one's (kube's
   * tryUpdate: ObjectResourceVersion of the updated object against the existing one's, else a 409 with
   * OptimisticLockErrorMsg). When another write lands between the read and the write, the whole step runs again on
   * a fresh read (etcd3 store.GuaranteedUpdate: "failed because of a conflict, going to retry"), so `change` decides
   * again: an object built from the fresh `current` is written, a client's stale resourceVersion answers 409.
   */
  async update(
    namespace: string,
    name: string,
    change: (current: KubeObject | null) => KubeObject | Promise<KubeObject>,
    options: WriteOptions = {},
  ): Promise<{ object: KubeObject; created: boolean }> {
    options = await this.#acting(options, options.patch ? "patch" : "update", namespace, name, options.subresource);
    const key = this.key(namespace, name);
    // As kube's GuaranteedUpdate, tried until it wins or fails otherwise: every lost race means another write won.
    let kv = await this.#storage.get(key);
    for (;;) {
      if (!kv) {
        if (!(this.strategy.allowCreateOnUpdate || options.forceAllowCreate) || options.subresource) {
          throw newNotFound(this.qualified, name);
        }
        const body = this.#checkedName(await change(null), name);
        // An update naming a version of an object that does not exist cannot create it.
        if (body.metadata.resourceVersion) throw newNotFound(this.qualified, name);
        const created = await this.createdObject(await this.#create(namespace, body, options));
        return { object: created, created: true };
      }
      const current = await this.decode(kv);
      const next = await this.#prepareUpdate(this.#checkedName(await change(structuredClone(current)), name), current, namespace, options);
      await this.#guard("update", namespace, next, current, options);
      const undoReservation = await this.#writeHooks?.run({
        operation: "update",
        type: this.type,
        namespace,
        object: next,
        oldObject: current,
        dryRun: options.dryRun ?? false,
      });
      const result = await this.#commitUpdate(key, kv, current, next, options).catch((e) => {
        undoReservation?.();
        throw e;
      });
      if ("lost" in result || options.dryRun) undoReservation?.();
      if ("object" in result) return { object: result.object, created: false };
      kv = result.lost;
    }
  }

  async delete(namespace: string, name: string, options: DeleteOptions = {}): Promise<DeleteResult> {
    options = await this.#acting(options, "delete", namespace, name);
    const key = this.key(namespace, name);
    let kv = await this.#storage.get(key);
    // The namespace and CRD REST check preconditions themselves, in storage's words; others first in rest.BeforeDelete's.
    let stage: "before-delete" | "storage" = this.strategy.markTerminating ? "storage" : "before-delete";
    for (;; stage = "storage") {
      if (!kv) throw newNotFound(this.qualified, name);
      const current = await this.decode(kv);
      checkDeletePreconditions(this.#preconditionSubject, current, options.preconditions, stage);
      const plan = planDelete(this.strategy, current, options);
      // A deletion already under way is answered before admission, which kube runs only where it writes.
      if (plan.action === "keep") return { object: current, deleted: false };
      await this.#admitDelete(namespace, current, options);
      if (plan.action === "remove") {
        if (options.dryRun) return { object: current, deleted: true };
        try {
          return { object: await this.#remove(key, kv, name), deleted: true };
        } catch (e) {
          kv = await this.#afterConflict(e, key);
          continue;
        }
      }
      // A dry run answers the marked object at the stored resourceVersion (kube's DryRunnableStorage.GuaranteedUpdate).
      plan.next.metadata.resourceVersion = current.metadata.resourceVersion;
      if (options.dryRun) return { object: plan.next, deleted: plan.thenRemove };
      const value = await this.#encode(plan.next);
      // kube's GuaranteedUpdate writes nothing when the object would not change (a repeated DELETE).
      if (value === kv.value && !plan.thenRemove) return { object: current, deleted: false };
      let written: KeyValue;
      try {
        written = value === kv.value ? kv : await this.#storage.write({ op: "update", key, value, expectedRevision: kv.modRevision });
      } catch (e) {
        kv = await this.#afterConflict(e, key);
        continue;
      }
      if (!plan.thenRemove) return { object: await this.decode(written), deleted: false };
      try {
        return { object: await this.#remove(key, written, name), deleted: true };
      } catch (e) {
        // Removed by someone else right after the mark (kube's ignoreNotFound): the marked object is the answer.
        if (isNotFound(e)) return { object: await this.decode(written), deleted: true };
        kv = await this.#afterConflict(e, key);
      }
    }
  }

  /** Removes the stored object at `kv`'s revision and answers its last state at the deleting revision. */
  async #remove(key: string, kv: KeyValue, name: string): Promise<KubeObject> {
    const gone = await this.#storage.write({ op: "delete", key, expectedRevision: kv.modRevision }).catch((e) => {
      throw isStorageError(e, "NotFound") ? newNotFound(this.qualified, name) : e;
    });
    return this.decode(gone);
  }

  #guard(
    operation: WriteAttempt["operation"],
    namespace: string,
    object: KubeObject,
    oldObject: KubeObject | null,
    options: WriteOptions,
  ): void | Promise<void> {
    const user = this.#admittedUser(options);
    if (!this.#writeGate || !user) return;
    return this.#writeGate({
      operation,
      user,
      type: this.type,
      namespace,
      object,
      oldObject,
      dryRun: options.dryRun ?? false,
    });
  }

  /** Mutating admission of a user's write (spec 4.13); kube's defaults run again over what plugins set. */
  #admit(
    operation: "CREATE" | "UPDATE",
    namespace: string,
    object: KubeObject,
    oldObject: KubeObject | null,
    options: WriteOptions,
  ): AdmittedWrite | null | Promise<AdmittedWrite | null> {
    const admission = this.#admission?.();
    const user = this.#admittedUser(options);
    if (!admission || !user) return null;
    const write: AdmittedWrite = {
      operation,
      type: this.type,
      subresource: options.subresource ?? "",
      namespace,
      name: String(object.metadata.name ?? ""),
      object,
      oldObject,
      user,
      dryRun: options.dryRun ?? false,
      options: writeOptionsObject(operation, options),
      warnings: options.warnings,
      auditAnnotations: options.auditAnnotations,
    };
    return thenOrNow(admission.admit(write), (changed) => this.#defaultedAfterAdmission(write, changed));
  }

  #defaultedAfterAdmission(write: AdmittedWrite, changed: boolean): AdmittedWrite {
    if (changed) this.definition.applyDefaults(write.object!);
    return write;
  }

  #validateAdmission(write: AdmittedWrite | null): void | Promise<void> {
    if (write) return this.#admission?.()?.validate(write);
  }

  /**
   * Both admission phases for a user's create on a subresource whose handler stores nothing here (a TokenRequest:
   * kube's TokenREST.Create runs the create admission before minting).
   */
  async admitSubresourceCreate(
    subresource: string,
    namespace: string,
    name: string,
    object: KubeObject,
    user: UserInfo,
    warnings: string[],
    dryRun = false,
  ): Promise<void> {
    const admission = this.#admission?.();
    if (!admission) return;
    const write: AdmittedWrite = {
      operation: "CREATE",
      type: this.type,
      subresource,
      namespace,
      name,
      object,
      oldObject: null,
      user,
      dryRun,
      options: writeOptionsObject("CREATE", { dryRun }),
      warnings,
    };
    await admission.admit(write);
    await admission.validate(write);
  }

  /** Both admission phases for a user's delete, with the stored object as oldObject (kube's deleteValidation). */
  async #admitDelete(namespace: string, current: KubeObject, options: DeleteOptions): Promise<void> {
    const admission = this.#admission?.();
    const user = this.#admittedUser(options);
    if (!admission || !user) return;
    const write: AdmittedWrite = {
      operation: "DELETE",
      type: this.type,
      subresource: "",
      namespace,
      name: String(current.metadata.name),
      object: null,
      oldObject: current,
      user,
      dryRun: options.dryRun ?? false,
      options: deleteOptionsObject(options),
      auditAnnotations: options.auditAnnotations,
    };
    await admission.admit(write);
    await admission.validate(write);
  }

  #checkedName(obj: KubeObject, urlName: string): KubeObject {
    checkBodyName(obj, urlName);
    if (!isPlainObject(obj.metadata)) obj.metadata = {};
    obj.metadata.name = urlName;
    return obj;
  }

  async #prepareUpdate(body: KubeObject, stored: KubeObject, namespace: string, options: WriteOptions): Promise<KubeObject> {
    const subresource = options.subresource ?? "";
    // kube compares the old object as its Go struct decodes it: one stored without its zero values (by an older kubun)
    // bumps no generation against a body that has them. A converted read (conversion/mod.ts) has them already.
    const current = this.convertsOnRead ? stored : withGoZeroValues(stored);
    await turnFor(options);
    const next = normalizedBody(this.type, this.strategy, body, namespace);
    checkUpdateVersion(this.type, next, current, options.replace === true && !this.strategy.allowUnconditionalUpdate);
    const errors = prepareUpdateMeta(next, current);
    if (errors.length > 0) throw newInvalid({ group: this.type.group, kind: this.type.kind }, current.metadata.name as string, errors);
    const merged = mergedForUpdate(this.strategy, next, current, subresource);
    if (subresource === "") this.strategy.beginUpdate?.(merged, current);
    await turnFor(options);
    this.#typeAndDefault(merged, options);
    // As on create: kube's update handler records managedFields before mutating admission.
    await this.#managedFields.track(current, merged, options);
    const admitted = await this.#admit("UPDATE", namespace, merged, current, options);
    const countsAnnotations = subresource === "" && this.strategy.annotationsBumpGeneration === true;
    if (this.strategy.tracksGeneration && bumpsGeneration(merged, current, countsAnnotations)) {
      merged.metadata.generation = (current.metadata.generation ?? 0) + 1;
    }
    await turnFor(options);
    validateNewObject(this.definition, merged, { old: current, subresource });
    await this.#validateAdmission(admitted);
    return merged;
  }

  /** Schema check (unless the handler did it as it decoded the body), then kube's defaults. */
  #typeAndDefault(obj: KubeObject, options: WriteOptions): void {
    if (!options.unknownFieldsDropped) this.dropUnknownFields(obj, options);
    this.definition.applyDefaults(obj);
  }

  /** The decoder's strict check of `obj` (unknown-fields.ts), for a handler to run as it decodes the body. */
  dropUnknownFields(obj: KubeObject, options: Pick<WriteOptions, "fieldValidation" | "warnings">): string[] {
    return dropUnknownFields(this.type, this.#extension, obj, options);
  }

  /** What writes to this resource (or one of its subresources) may own in managedFields. */
  ownershipScope(subresource = ""): OwnershipScope {
    return this.#managedFields.scope(subresource);
  }

  /** Writes `next` if it differs from what is stored; when the stored object changed meanwhile, the value that won (retry). */
  async #commitUpdate(
    key: string,
    kv: KeyValue,
    current: KubeObject,
    next: KubeObject,
    options: WriteOptions,
  ): Promise<{ object: KubeObject } | { lost: KeyValue | null }> {
    const value = await this.#encode(next);
    if (value === kv.value) return { object: current };
    const finalized = deletesDuringUpdate(this.strategy, current, next);
    // kube's DryRunnableStorage.GuaranteedUpdate answers the updated object at the stored resourceVersion.
    const storedVersion = current.metadata.resourceVersion;
    if (options.dryRun) {
      return { object: await this.#asStoredAndRead({ ...next, metadata: { ...next.metadata, resourceVersion: storedVersion } }) };
    }
    try {
      const written = finalized
        ? await this.#storage.write({ op: "delete", key, expectedRevision: kv.modRevision })
        : await this.#storage.write({ op: "update", key, value, expectedRevision: kv.modRevision });
      return { object: finalized ? next : await this.decode(written) };
    } catch (e) {
      if (isStorageError(e, "NotFound")) throw newNotFound(this.qualified, current.metadata.name as string);
      return { lost: await this.#afterConflict(e, key) };
    }
  }
}
