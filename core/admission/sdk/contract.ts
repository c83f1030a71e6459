/**
 * The admission contract as a plugin sees it (k8s.io/apiserver pkg/admission Attributes), free of kubun's
 * internals: this folder imports nothing outside itself, so `kubun sdk init` can copy it into any project. The
 * server hands plugins core/admission/types.ts's attributes, which have this shape.
 */
import type { ObjectMeta } from "./kinds.gen.ts";

export type Operation = "CREATE" | "UPDATE" | "DELETE" | "CONNECT";

/** What every object has: built-in kinds are typed in kinds.gen.ts, custom resources through a type parameter. */
export interface TypedObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
}

/** An object of a type nobody declared. */
export interface KubeObject extends TypedObject {
  [field: string]: unknown;
}

/** The identity a request is made with (k8s.io/apiserver pkg/authentication/user). */
export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

/** State shared by the passes of one request's mutating phase (kube's ReinvocationContext). */
export interface ReinvocationContext {
  readonly isReinvoke: boolean;
  /** Asks for a second pass of the mutating phase (honoured once per request). */
  requestReinvocation(): void;
  /** Per-plugin memory across passes, keyed by the plugin's name. */
  readonly values: Map<string, unknown>;
}

/**
 * One write as admission sees it. `T` is the object's type; `O` what `object` may be (null on DELETE and
 * CONNECT, so a plugin handling only CREATE and UPDATE gets a non-null object).
 */
export interface AdmissionRequest<T extends TypedObject = KubeObject, O extends T | null = T | null> {
  operation: Operation;
  /** The object being written; `admit` may change it in place. */
  object: O;
  /** The stored object an UPDATE or DELETE replaces; null on CREATE. */
  oldObject: T | null;
  kind: { group: string; version: string; kind: string };
  resource: { group: string; version: string; resource: string };
  /** "" for the main resource, e.g. "status" for a status write. */
  subresource: string;
  name: string;
  /** "" for cluster-scoped resources. */
  namespace: string;
  user: UserInfo;
  dryRun: boolean;
  /** CreateOptions, UpdateOptions or DeleteOptions of the request, as sent. */
  options: { kind?: string; apiVersion?: string; [field: string]: unknown };
  reinvocation: ReinvocationContext;
  /** Adds a `Warning: 299` header to the response. */
  addWarning(text: string): void;
  /** Records an audit annotation (unique key per request; prefix it with the plugin's name). */
  addAuditAnnotation(key: string, value: string): void;
}

/** What `validate` gets: it may only refuse. */
export type ValidationRequest<T extends TypedObject = KubeObject, O extends T | null = T | null> = Readonly<AdmissionRequest<T, O>>;

export interface ObjectReference {
  group: string;
  version: string;
  resource: string;
  namespace?: string;
  name: string;
}

/** Reads of the cluster's current objects (any served resource). */
export interface ReadOnlyClient {
  /** The object, or null when it does not exist. */
  get(ref: ObjectReference): Promise<KubeObject | null>;
  /** Every object of the type, in one namespace or all. */
  list(ref: Omit<ObjectReference, "name">): Promise<KubeObject[]>;
}

export interface PluginLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** What a plugin's factory receives once at start. */
export interface AdmissionPluginContext {
  /** The server's parsed flags. */
  config: Readonly<Record<string, unknown>>;
  client: ReadOnlyClient;
  log: PluginLogger;
  /** `configuration` of this plugin's entry in --admission-control-config-file (undefined when absent). */
  pluginConfig: unknown;
}

/** What the server calls: the shape of core/admission/types.ts's AdmissionPlugin. */
export interface AdmissionPlugin {
  readonly name: string;
  handles?(request: AdmissionRequest): boolean;
  admit?(request: AdmissionRequest): Promise<void> | void;
  validate?(request: ValidationRequest): Promise<void> | void;
  readonly sideEffects?: boolean;
  readonly timeoutMs?: number;
}

export type AdmissionPluginFactory = (context: AdmissionPluginContext) => AdmissionPlugin | Promise<AdmissionPlugin>;
