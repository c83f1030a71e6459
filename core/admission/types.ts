/**
 * The admission contract (k8s.io/apiserver pkg/admission): what a plugin sees of a write (Attributes) and what
 * it may do (AdmissionPlugin). A plugin refuses by throwing, preferably a StatusError (core/api/errors.ts);
 * anything else thrown becomes a 500 Status. Plugins run for every write: users' requests, controllers' (as their
 * service accounts) and the server's own (as system:apiserver); only the server's bootstrap writes
 * (core/registry Registry.bootstrapWriter()) skip admission.
 *
 * Order (spec 4.13): every plugin's `admit` in the chain's order (mutating built-ins, then the mutating webhook
 * plugin), schema defaults again, validation, then every plugin's `validate` (validating built-ins, then the
 * validating webhook plugin). A plugin that asks for reinvocation during `admit` gets the whole mutating phase
 * run once more (kube's reinvoker), with `reinvocation.isReinvoke` true.
 */
import type { KubeObject } from "../api/types.ts";
import type { UserInfo } from "../auth/user.ts";
import type { Authorizer } from "../auth/authorizer.ts";
import type { PluginContext } from "../auth/plugin-context.ts";
import type { Catalog } from "../registry/catalog.ts";
import type { Registry } from "../registry/registry.ts";
import type { OptionsObject } from "../registry/admission-hook.ts";

export type { OptionsObject };
import type { Registry as MetricsRegistry } from "prom-client";

export type Operation = "CREATE" | "UPDATE" | "DELETE" | "CONNECT";

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface GroupVersionResourceRef {
  group: string;
  version: string;
  resource: string;
}

/** State shared by the passes of one request's mutating phase (kube's ReinvocationContext). */
export interface ReinvocationContext {
  /** True during the second pass. */
  readonly isReinvoke: boolean;
  /** Asks for a second pass of the mutating phase after this one (honoured once per request). */
  requestReinvocation(): void;
  /** Per-plugin memory across passes, keyed by the plugin's name. */
  readonly values: Map<string, unknown>;
}

export interface AdmissionAttributes {
  operation: Operation;
  /** The object being written; `admit` may change it in place. null on DELETE and CONNECT. */
  object: KubeObject | null;
  /** The stored object an UPDATE or DELETE replaces; null on CREATE. */
  oldObject: KubeObject | null;
  kind: GroupVersionKind;
  resource: GroupVersionResourceRef;
  /** "" for the main resource, e.g. "status" for a status write. */
  subresource: string;
  name: string;
  /** "" for cluster-scoped resources. */
  namespace: string;
  user: UserInfo;
  dryRun: boolean;
  /** CreateOptions, UpdateOptions or DeleteOptions of the request, as sent (kind and apiVersion set). */
  options: OptionsObject;
  reinvocation: ReinvocationContext;
  /** Adds a `Warning: 299` header to the response. */
  addWarning(text: string): void;
  /** Records an audit annotation (key must be unique per request; the plugin name is a good prefix). */
  addAuditAnnotation(key: string, value: string): void;
}

/** Read-only view of the attributes handed to `validate`. */
export type ValidationAttributes = Readonly<AdmissionAttributes>;

export interface AdmissionPlugin {
  /** Name used in flags and error messages, e.g. "NamespaceLifecycle" or "require-team-label". */
  readonly name: string;
  /** Whether this plugin looks at the request at all (kube's Handles). Default: every request. */
  handles?(attributes: AdmissionAttributes): boolean;
  /** Mutating phase: may change `attributes.object`. */
  admit?(attributes: AdmissionAttributes): Promise<void> | void;
  /** Validating phase: may only refuse. */
  validate?(attributes: ValidationAttributes): Promise<void> | void;
  /** A plugin with side effects cannot take part in a dry run: such a request fails (spec 4.8.3). */
  readonly sideEffects?: boolean;
  /** Longest time one call may take before the request fails with a 500 (default: none for built-ins). */
  readonly timeoutMs?: number;
}

/** What a plugin factory receives: the shared plugin context plus its own AdmissionConfiguration section. */
export interface AdmissionPluginContext extends PluginContext {
  /** `configuration` of this plugin's entry in --admission-control-config-file (undefined when absent). */
  pluginConfig: unknown;
}

export type AdmissionPluginFactory<C extends AdmissionPluginContext = AdmissionPluginContext> = (
  context: C,
) => AdmissionPlugin | Promise<AdmissionPlugin>;

/** Built-in plugins also get the registry (ResourceQuota writes quota status) and the served types. */
export interface BuiltInAdmissionContext extends AdmissionPluginContext {
  registry: Registry;
  catalog: Catalog;
  /** The server's /metrics registry, for plugins with metrics of their own (the webhook rejection count). */
  metricsRegistry?: MetricsRegistry;
  /** The server's authorizer (kube's WantsAuthorizer: the certificate plugins check `approve`/`sign` on signers). */
  authorizer: Authorizer;
}

export type BuiltInAdmissionFactory = AdmissionPluginFactory<BuiltInAdmissionContext>;
