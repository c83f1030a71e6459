/**
 * defineAdmissionPlugin: turns a plugin's declaration (what it handles, `admit`, `validate`) into the factory
 * the server loads. `request.object` is typed by `handles.resources` (`pods` gives Pod, several names a union,
 * anything else KubeObject) or, for custom resources, by the type parameter: `defineAdmissionPlugin<Widget>(...)`.
 * Each call is bounded by a timeout (default 10 s, like a webhook's).
 */
import type {
  AdmissionPlugin,
  AdmissionPluginContext,
  AdmissionPluginFactory,
  AdmissionRequest,
  KubeObject,
  Operation,
  TypedObject,
  ValidationRequest,
} from "./contract.ts";
import type { BuiltInResources } from "./kinds.gen.ts";
import { AdmissionDenial, type Verdict } from "./verdict.ts";

export const DEFAULT_PLUGIN_TIMEOUT_MS = 10_000;

/** The object type for `handles.resources` names; `Custom` (a custom resource's type) wins when given. */
export type ObjectFor<R extends string, Custom extends TypedObject> = [Custom] extends [never]
  ? R extends keyof BuiltInResources ? BuiltInResources[R] : KubeObject
  : Custom;

/** `object` is null only on DELETE and CONNECT: null joins its type only when the plugin handles those. */
type NullUnless<O extends string> = [Extract<O, "DELETE" | "CONNECT" | "*">] extends [never] ? never : null;

type Outcome = Verdict | void | Promise<Verdict | void>;

export interface AdmissionPluginDefinition<
  T extends TypedObject = KubeObject,
  O extends Operation | "*" = Operation | "*",
  R extends string = string,
> {
  name: string;
  handles: {
    /** e.g. ["CREATE", "UPDATE"]; "*" for all. */
    operations: readonly O[];
    /** Plural resources, `resource.group` outside the core group, `resource/subresource`; "*" for all. */
    resources: readonly R[];
  };
  /** May change `request.object`; refuses by returning deny(...) or throwing. */
  admit?(request: AdmissionRequest<T, T | NullUnless<O>>, context: AdmissionPluginContext): Outcome;
  /** Refuses by returning deny(...) or throwing. */
  validate?(request: ValidationRequest<T, T | NullUnless<O>>, context: AdmissionPluginContext): Outcome;
  /** Set when the plugin changes anything outside the request; dry-run requests it handles then fail. */
  sideEffects?: boolean;
  timeoutSeconds?: number;
}

export function defineAdmissionPlugin<
  Custom extends TypedObject = never,
  const O extends Operation | "*" = Operation | "*",
  const R extends string = string,
>(definition: AdmissionPluginDefinition<ObjectFor<R, Custom>, O, R>): AdmissionPluginFactory {
  return (context) => {
    const { admit, validate } = definition as AdmissionPluginDefinition;
    const plugin: AdmissionPlugin = {
      name: definition.name,
      handles: (request) => handlesRequest(definition.handles, request),
      admit: admit && (async (request) => applyVerdict(await admit(request, context), request)),
      validate: validate && (async (request) => applyVerdict(await validate(request, context), request)),
      sideEffects: definition.sideEffects ?? false,
      timeoutMs: (definition.timeoutSeconds ?? DEFAULT_PLUGIN_TIMEOUT_MS / 1000) * 1000,
    };
    return plugin;
  };
}

function applyVerdict(verdict: Verdict | void, request: Pick<AdmissionRequest, "addWarning">): void {
  if (!verdict) return;
  for (const text of verdict.warnings ?? []) request.addWarning(text);
  if (!verdict.allowed) throw new AdmissionDenial(verdict.message, verdict.code, verdict.reason);
}

export function handlesRequest(
  handles: { operations: readonly string[]; resources: readonly string[] },
  request: Pick<AdmissionRequest, "operation" | "resource" | "subresource">,
): boolean {
  if (!handles.operations.includes("*") && !handles.operations.includes(request.operation)) return false;
  const { group, resource } = request.resource;
  const qualified = group === "" ? resource : `${resource}.${group}`;
  const named = request.subresource ? `${qualified}/${request.subresource}` : qualified;
  return handles.resources.some((pattern) => pattern === "*" ? !request.subresource : pattern === named || pattern === "*/*");
}
