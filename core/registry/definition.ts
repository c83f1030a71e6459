/**
 * One definition per served kind: everything kind-specific the server needs, in one place (kube's registry.Store
 * with its strategy, printer and field-label conversion). A built-in kind's definition joins the generated catalog
 * entry (names, scope, verbs, status/scale subresources, what DELETE answers per the 1.26 OpenAPI), the generated
 * protobuf descriptors and kube's defaulting (core/schema) with its hand-written facts (kind-facts.ts); a custom
 * resource's comes from its CRD at run time (StoreExtension). The store, handlers and printers read only this.
 */
import type { FieldError } from "../api/errors.ts";
import { customResourceFields, DEFAULT_FIELDS, type KindFields } from "../api/field-labels.ts";
import { nameIsDNSSubdomain, type NameValidator } from "../api/names.ts";
import type { Printer } from "../api/printers/mod.ts";
import { hasProtobufEncoding } from "../api/protobuf/mod.ts";
import { apiVersionOf, type KubeObject } from "../api/types.ts";
import { applyDefaults } from "../schema/defaults/mod.ts";
import { withGoZeroValuesOf } from "../schema/go-zero-values.ts";
import { builtInSchemas } from "../schema/lookup.ts";
import { type KindFacts, kindFactsOf } from "./kind-facts.ts";
import type { ResourceType } from "../api/resource-type.ts";
import type { StoreExtension } from "./store-extension.ts";
import type { Strategy } from "./strategy.ts";

export interface KindDefinition {
  /** The catalog entry: names, scope, verbs, subresources, storage version hash (generated for built-ins). */
  readonly type: ResourceType;
  /** The Store fields and strategy hooks the generic store runs. */
  readonly strategy: Strategy;
  /** kube's ValidateXName for metadata.name. */
  readonly nameRule: NameValidator;
  /** Updates leave the name's format unchecked (KindFacts.nameRuleOnCreateOnly). */
  readonly nameRuleOnCreateOnly?: boolean;
  /** The kind's value rules (metadata rules are common, see validate.ts); `old` on update. */
  validate(obj: KubeObject, old: KubeObject | undefined, subresource: string): FieldError[];
  /** kube's defaulting, in place (for a built-in kind also the Go zero values kube's encoding writes). */
  applyDefaults(obj: KubeObject): void;
  /** The Table printer; undefined = kube's default Name / Created At columns. */
  readonly printer?: Printer;
  /** The labels a field selector may name and the values an object has for them. */
  readonly fields: KindFields;
  /** Requests and answers may use kube's protobuf encoding. */
  readonly protobuf: boolean;
  /** A type defined at run time: its schema's pruning, conversion and merge type. */
  readonly extension?: StoreExtension;
  /** Reads skip kube's watch cache (KindFacts.noWatchCache): no waiting for a resourceVersion, no bookmarks. */
  readonly noWatchCache?: boolean;
}

/** The definition of a kind kube 1.26 builds in; kinds without an entry in kind-facts.ts get kube's generic Store. */
export function builtInDefinition(type: ResourceType): KindDefinition {
  const facts = kindFactsOf(type.group, type.resource) ?? {};
  const schema = builtInSchemas.schemaForKind(type.group, type.version, type.kind);
  return {
    type,
    strategy: strategyOf(type, facts),
    nameRule: facts.name ?? nameIsDNSSubdomain,
    nameRuleOnCreateOnly: facts.nameRuleOnCreateOnly,
    validate: (obj, old, subresource) => {
      const rules = (subresource ? facts.subresourceRules?.[subresource] : undefined) ?? facts.rules;
      if (!rules) return [];
      return old && rules.update ? rules.update(obj, old, subresource) : rules.create(obj);
    },
    applyDefaults: (obj) => {
      applyDefaults(type, obj);
      if (schema) Object.assign(obj, withGoZeroValuesOf(builtInSchemas, schema, obj));
    },
    printer: facts.printer,
    fields: facts.fields ?? DEFAULT_FIELDS,
    protobuf: hasProtobufEncoding(apiVersionOf(type.group, type.version), type.kind),
    noWatchCache: facts.noWatchCache,
  };
}

/** The definition of a custom resource type, from its CRD's served version (core/crd builds the extension). */
export function customDefinition(type: ResourceType, extension: StoreExtension): KindDefinition {
  return {
    type,
    strategy: { ...strategyOf(type, {}), ...extension.strategy },
    nameRule: nameIsDNSSubdomain,
    validate: (obj, old) => extension.validate(obj, old),
    applyDefaults: (obj) => extension.applyDefaults(obj),
    printer: extension.printer,
    fields: customResourceFields(type.namespaced),
    protobuf: false,
    extension,
  };
}

function strategyOf(type: ResourceType, facts: KindFacts): Strategy {
  const hasStatus = type.subresources.some((s) => s.name === "status");
  // The status subresource's PrepareForCreate drops what the client sent, unless the kind keeps it.
  const clearsStatus = hasStatus && !facts.keepsStatusOnCreate;
  return {
    tracksGeneration: facts.tracksGeneration === true,
    allowCreateOnUpdate: facts.allowCreateOnUpdate === true,
    allowUnconditionalUpdate: facts.conditionalUpdateOnly !== true,
    hasStatus,
    defaultPropagation: facts.orphansDependents ? "Orphan" : "Background",
    returnsDeletedObject: type.deleteReturnsObject === true || facts.returnsDeletedObject === true,
    ...(clearsStatus ? { initialStatus: () => undefined } : {}),
    ...facts.hooks,
  };
}
